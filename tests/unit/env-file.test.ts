import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseEnvFile } from '../../functions/config/env-file.ts';

const run = promisify(execFile);

/** What `set -a; . file` leaves in the shell for `names`. */
async function sourced(text: string, names: string[]): Promise<Record<string, string>> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'portfolio-env-file-')), 'portfolio.env');
  writeFileSync(file, text);
  const script = `set -a; . ${file}; set +a; node -e 'process.stdout.write(JSON.stringify(Object.fromEntries(process.argv.slice(1).map((n) => [n, process.env[n]]))))' ${names.join(' ')}`;
  return JSON.parse((await run('sh', ['-c', script], { env: { PATH: process.env.PATH } })).stdout) as Record<
    string,
    string
  >;
}

describe('parseEnvFile', () => {
  const FILE = [
    '# a comment',
    '',
    '   # an indented comment',
    'SITE_URL="https://example.com"',
    'DATA_DIR=/var/lib/portfolio',
    `NOTIFY_EMAIL_FROM="Portfolio <site@example.com>"`,
    `DATABASE_URL="postgres://portfolio:pa\\$\\$word@localhost/portfolio?sslmode=disable&x=1"`,
    `SMTP_URL='smtp://user:pa$$word@localhost:25'`,
    'QUOTED="a \\"b\\" \\\\ c"',
    'EMPTY=',
    '#REDIS_URL="redis://localhost:6379"',
  ].join('\n');

  it('reads what the shell reads: bare, double-quoted and single-quoted values, comments and blanks', async () => {
    const parsed = parseEnvFile(FILE, 'portfolio.env');
    expect(parsed).toEqual({
      SITE_URL: 'https://example.com',
      DATA_DIR: '/var/lib/portfolio',
      NOTIFY_EMAIL_FROM: 'Portfolio <site@example.com>',
      DATABASE_URL: 'postgres://portfolio:pa$$word@localhost/portfolio?sslmode=disable&x=1',
      SMTP_URL: 'smtp://user:pa$$word@localhost:25',
      QUOTED: 'a "b" \\ c',
      EMPTY: '',
    });
    expect(await sourced(FILE, Object.keys(parsed))).toEqual(parsed);
  });

  it.each([
    ['a $ the shell would expand', 'DATABASE_URL="postgres://u:pa$word@h/db"', /line 1: the shell expands \$/],
    ['a backquote', 'X="`id`"', /line 1: the shell expands `/],
    ['an unquoted space', 'NOTIFY_EMAIL_FROM=Portfolio <site@example.com>', /line 1: put the value in double quotes/],
    ['an unquoted &', 'DATABASE_URL=postgres://h/db?a=1&b=2', /line 1: put the value in double quotes/],
    ['an open quote', 'SITE_URL="https://example.com', /line 1: the double quote is not closed/],
    ['text after the quote', 'SITE_URL="https://example.com" # mine', /line 1: nothing may follow/],
    ['a line that is no assignment', 'export SITE_URL="https://example.com"', /line 1: expected KEY="value"/],
  ])('refuses %s, naming the file and line', (_, line, reason) => {
    expect(() => parseEnvFile(line, '/etc/portfolio/portfolio.env')).toThrow(reason);
    expect(() => parseEnvFile(line, '/etc/portfolio/portfolio.env')).toThrow(/^\/etc\/portfolio\/portfolio\.env, /);
  });
});
