import { readFileSync } from 'node:fs';

/**
 * An environment file as systemd's `EnvironmentFile=` and the shell's `set -a; . file` both read
 * it: `KEY=value` lines, blank lines and `#` comments. A value is bare (no spaces or shell
 * characters), in double quotes (`\"`, `\\`, `\$` and `` \` `` escaped) or in single quotes
 * (taken as written). A line the two readers would read differently (a `$` or a backquote that the
 * shell would expand, an unquoted space) is refused, naming its line, rather than read one way.
 */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const values: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${file}, line ${index + 1}`;
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (assignment === null) throw new Error(`${where}: expected KEY="value", found ${JSON.stringify(line)}`);
    values[assignment[1]!] = parseValue(assignment[2]!, where);
  });
  return values;
}

const BARE = /^[^\s"'`$\\;&|<>()#]*$/;

function parseValue(text: string, where: string): string {
  if (text.startsWith("'")) {
    const end = text.indexOf("'", 1);
    if (end === -1) throw new Error(`${where}: the single quote is not closed on this line`);
    return closedAt(text, end, where, text.slice(1, end));
  }
  if (text.startsWith('"')) {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      const char = text[i]!;
      if (char === '"') return closedAt(text, i, where, value);
      if (char === '$' || char === '`')
        throw new Error(
          `${where}: the shell expands ${char} inside double quotes and systemd does not: write \\${char}, or use single quotes`,
        );
      if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) {
        value += text[++i];
        continue;
      }
      value += char;
    }
    throw new Error(`${where}: the double quote is not closed on this line`);
  }
  if (!BARE.test(text))
    throw new Error(
      `${where}: put the value in double quotes (KEY="value"): the shell reads spaces and ${'$&;|<>'} itself`,
    );
  return text;
}

/** The value of a quoted text ending at `end`, when nothing but spaces follows. */
function closedAt(text: string, end: number, where: string, value: string): string {
  if (text.slice(end + 1).trim() !== '') throw new Error(`${where}: nothing may follow the closing quote`);
  return value;
}

/** Reads an environment file; a missing or unreadable one is an error that names it. */
export function readEnvFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new Error(
      `--env-file ${file}: cannot read it (${reason})${code === 'EACCES' ? "; run as the service's user (sudo -u portfolio ...)" : ''}`,
    );
  }
  return parseEnvFile(text, file);
}
