import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';

const run = promisify(execFile);

/**
 * The owner's sections, in the README and in the reference it links to: every command they show
 * is run by a test or listed as not run. A section that moves to another file moves here too.
 */
const OWNER_SECTIONS: Record<string, readonly string[]> = {
  'README.md': ['Quick start', 'Make it yours', 'Live without a server', 'On a server of your own', 'Requirements'],
  'docs/deploy-buttons.md': ['The buttons', 'The values', 'Being told of messages', 'What each host runs'],
  'docs/deploy-vps.md': ['Setting it up', 'PostgreSQL on the same machine', 'Restarts'],
  'docs/static-hosts.md': ['The pages on a static host or CDN'],
  'docs/operations.md': [
    'Be told',
    'Backups',
    'Upgrading',
    'Running several instances',
    'Restarts without a gap',
    'A CDN in front',
  ],
};

/**
 * The programs an inline code span may start with to count as a command (after any `NAME=value`
 * assignments); any other span is a name, a value or an option. A README command for a program
 * missing here goes unnoticed, so the list is generous.
 */
const PROGRAMS = new Set([
  'apt',
  'apt-get',
  'bash',
  'cd',
  'certbot',
  'chown',
  'command',
  'cp',
  'crontab',
  'curl',
  'docker',
  'find',
  'git',
  'install',
  'journalctl',
  'ln',
  'mkdir',
  'nginx',
  'node',
  'npm',
  'npx',
  'openssl',
  'pg_dump',
  'pg_restore',
  'psql',
  'redis-cli',
  'rsync',
  'set',
  'sh',
  'sudo',
  'systemctl',
  'systemd-analyze',
  'tar',
  'useradd',
]);

const ASSIGNMENTS = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*/;
/** A crontab line: five schedule fields, then the command. */
const CRON_LINE = /^(?:[\d*/,-]+ ){5}\S/;
const FENCE = /^\s*```(\w*)\s*$/;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function isCommandSpan(span: string): boolean {
  if (CRON_LINE.test(span)) return true;
  const first = span.replace(ASSIGNMENTS, '').split(' ')[0]!;
  return span.includes(' ') && PROGRAMS.has(first);
}

/** The level-2 sections of a Markdown text by title; a `#` line inside a fenced block starts none. */
function sections(markdown: string): Map<string, string[]> {
  const bySection = new Map<string, string[]>();
  let lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^## (.+)$/.exec(line);
    if (heading) bySection.set(heading[1]!.trim(), (lines = []));
    else lines.push(line);
  }
  return bySection;
}

/**
 * Every command one section shows: each line of a ```sh block (without its `# comment`), each
 * `ExecStart=` line of an ```ini block (a systemd unit), and each inline code span that is a
 * command. Whitespace is collapsed, so a span wrapped over lines reads as one line.
 */
function commandsOf(lines: string[]): string[] {
  const commands: string[] = [];
  const prose: string[] = [];
  let language: string | null = null;
  for (const line of lines) {
    const fence = FENCE.exec(line);
    if (fence) language = language === null ? fence[1]! : null;
    else if (language === null) prose.push(line);
    else if (language === 'sh' && !/^\s*(#|$)/.test(line)) commands.push(oneLine(line.replace(/\s+#\s.*$/, '')));
    else if (language === 'ini' && line.startsWith('ExecStart=')) commands.push(oneLine(line));
  }
  for (const [, span] of prose.join('\n').matchAll(/`([^`]+)`/g)) {
    if (isCommandSpan(oneLine(span!))) commands.push(oneLine(span!));
  }
  return commands;
}

/** The commands of the owner's sections, each once, by file and section ("docs/operations.md: Backups"). */
export function readmeCommands(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [file, titles] of Object.entries(OWNER_SECTIONS)) {
    const bySection = sections(readFileSync(path.join(ROOT, file), 'utf8'));
    for (const title of titles) {
      const lines = bySection.get(title);
      if (lines === undefined) throw new Error(`${file} has no section "## ${title}"`);
      found.set(`${file}: ${title}`, [...new Set(commandsOf(lines))]);
    }
  }
  return found;
}

/** How a command ended. */
export interface ShellOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A README command with its placeholders replaced: each `[shown, actual]` pair must occur in it
 * (a README that no longer shows the placeholder fails here rather than running something else).
 */
export function substitute(command: string, replacements: [string | RegExp, string][]): string {
  let text = command;
  for (const [shown, actual] of replacements) {
    const found = typeof shown === 'string' ? text.includes(shown) : shown.test(text);
    if (!found) throw new Error(`"${String(shown)}" is not in the README command: ${command}`);
    text = typeof shown === 'string' ? text.replaceAll(shown, () => actual) : text.replace(shown, () => actual);
  }
  return text;
}

/** Runs a command line with `sh -c`, as a terminal, cron or `ExecStart=/bin/sh -c` would; never rejects. */
export async function sh(
  line: string,
  { cwd = ROOT, env = {} }: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ShellOutcome> {
  try {
    const { stdout, stderr } = await run('sh', ['-c', line], { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout: string; stderr: string };
    return { code: code ?? -1, stdout, stderr };
  }
}
