import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnvFile } from '../../functions/config/env-file.ts';
import { deployButtonsMarkdown, deployLinks, FORK_PLACEHOLDER } from '../../functions/hosts/static/deploy-buttons.ts';
import { askedVariables, deployVariables } from '../../functions/hosts/static/deploy-variables.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The docs that carry the buttons: docs/deploy-buttons.md now, the README once they move there. */
const BUTTON_DOCS = ['README.md', 'docs/deploy-buttons.md'].filter((file) => existsSync(path.join(ROOT, file)));

/** Every deploy link in the docs, by host. */
function linksInDocs(): Record<'netlify' | 'vercel' | 'cloudflare', string[]> {
  const text = BUTTON_DOCS.map(read).join('\n');
  const find = (prefix: string) =>
    [...text.matchAll(/\]\((https:\/\/[^)\s]+)\)/g)].map((m) => m[1]!).filter((url) => url.startsWith(prefix));
  return {
    netlify: find('https://app.netlify.com/start/deploy?'),
    vercel: find('https://vercel.com/new/clone?'),
    cloudflare: find('https://deploy.workers.cloudflare.com/?'),
  };
}

/** A `[section]`'s `KEY = "value"` lines in a TOML file (the shape netlify.toml uses). */
function tomlSection(text: string, section: string): Record<string, string> {
  const start = text.indexOf(`\n[${section}]\n`);
  if (start === -1) return {};
  const body = text.slice(start + section.length + 4).split(/\n\[/)[0]!;
  return Object.fromEntries(
    [...body.matchAll(/^\s*([A-Z_][A-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/gm)].map((m) => [
      m[1]!,
      JSON.parse(`"${m[2]!}"`) as string,
    ]),
  );
}

describe('the variables a function deployment is asked for (functions/hosts/static/deploy-variables.ts)', () => {
  it('are DATABASE_URL and the notification variables everywhere, and CRON_SECRET on Vercel only (its row says hosts: vercel)', () => {
    const notifications = [
      'NOTIFY_WEBHOOK_URL',
      'NOTIFY_WEBHOOK_SECRET',
      'SMTP_URL',
      'NOTIFY_EMAIL_TO',
      'NOTIFY_EMAIL_FROM',
    ];
    expect(deployVariables('netlify').map(({ name }) => name)).toEqual(['DATABASE_URL', ...notifications]);
    expect(deployVariables('cloudflare').map(({ name }) => name)).toEqual(['DATABASE_URL', ...notifications]);
    expect(deployVariables('vercel').map(({ name }) => name)).toEqual([
      'DATABASE_URL',
      ...notifications,
      'CRON_SECRET',
    ]);
    expect(askedVariables('vercel')).toEqual(['DATABASE_URL', 'NOTIFY_WEBHOOK_URL', 'CRON_SECRET']);
    expect(
      deployVariables('vercel')
        .filter(({ need }) => need === 'optional')
        .map(({ name }) => name),
    ).toEqual(notifications.slice(1));
  });
});

describe('the deploy buttons', () => {
  const links = linksInDocs();

  it('are in the docs, as deploy:buttons prints them for the placeholder fork', () => {
    expect(BUTTON_DOCS.map(read).join('\n')).toContain(deployButtonsMarkdown(FORK_PLACEHOLDER));
    for (const host of ['netlify', 'vercel', 'cloudflare'] as const)
      expect(links[host].length, host).toBeGreaterThan(0);
  });

  it('Netlify: names the repository; netlify.toml [template.environment] asks for what the deployment needs, each with its line', () => {
    for (const link of links.netlify) expect(new URL(link).searchParams.get('repository')).toBe(FORK_PLACEHOLDER);
    const asked = tomlSection(read('netlify.toml'), 'template.environment');
    const expected = deployVariables('netlify').filter(({ need }) => need !== 'optional');
    expect(Object.keys(asked)).toEqual(expected.map(({ name }) => name));
    for (const { name, description } of expected) expect(asked[name], name).toBe(description);
  });

  it('Vercel: env is the required list, CRON_SECRET included; envDescription names the optional ones; envLink is in the fork', () => {
    for (const link of links.vercel) {
      const params = new URL(link).searchParams;
      expect(params.get('repository-url')).toBe(FORK_PLACEHOLDER);
      expect(params.get('env')?.split(',')).toEqual(askedVariables('vercel'));
      const description = params.get('envDescription') ?? '';
      for (const { name } of deployVariables('vercel')) expect(description, name).toContain(name);
      expect(params.get('envLink')).toMatch(new RegExp(`^${FORK_PLACEHOLDER}/`));
    }
    expect(deployLinks('https://github.com/ada/site/').vercel).toContain(
      `repository-url=${encodeURIComponent('https://github.com/ada/site')}&`,
    );
  });

  it('Cloudflare: names the repository; .dev.vars.example asks for what the deployment needs, the rest commented; package.json describes each', () => {
    for (const link of links.cloudflare) expect(new URL(link).searchParams.get('url')).toBe(FORK_PLACEHOLDER);
    const example = read('.dev.vars.example');
    const asked = askedVariables('cloudflare');
    expect(Object.keys(parseEnvFile(example, '.dev.vars.example'))).toEqual(asked);
    const commented = [...example.matchAll(/^# ([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(commented).toEqual(
      deployVariables('cloudflare')
        .filter(({ need }) => need === 'optional')
        .map(({ name }) => name),
    );
    const { cloudflare } = JSON.parse(read('package.json')) as {
      cloudflare: { bindings: Record<string, { description: string }> };
    };
    expect(cloudflare.bindings).toEqual(
      Object.fromEntries(
        deployVariables('cloudflare')
          .filter(({ need }) => need !== 'optional')
          .map(({ name, description }) => [name, { description }]),
      ),
    );
  });
});
