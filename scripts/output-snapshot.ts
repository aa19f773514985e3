/**
 * Records what a build shows visitors and agents, and compares two records: the check that a
 * platform upgrade (a new Astro, Zod or Markdown processor) changed nothing by accident.
 *
 *   node --import tsx scripts/output-snapshot.ts record <file.json> [client dir]   # after `npm run build`
 *   node --import tsx scripts/output-snapshot.ts compare <before.json> <after.json>
 *
 * Each HTML page is recorded as its visible text (what a person reads) and its head's meta and
 * link tags (what crawlers read), every text document (Markdown twins, llms.txt, OpenAPI, server
 * cards, the sitemap, the .well-known documents) as it is, and each image as its dimensions.
 * Hashed bundles under _astro/ and the precompressed twins are left out: their bytes change with
 * any toolchain while what they carry is checked through the pages.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import sharp from 'sharp';

/** The built client files; another build's copy can be recorded by naming its folder. */
const DEFAULT_CLIENT_DIR = 'dist/client';
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif']);
const SKIPPED_EXTENSIONS = new Set(['.br', '.gz', '.svg', '.ico', '.woff', '.woff2']);
/** Lines that change with the build date alone (security.txt's Expires), not with the code. */
const BUILD_DATE_LINE = /^Expires: .*$/gm;

type Snapshot = Record<string, string>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith('_astro/') && !SKIPPED_EXTENSIONS.has(extname(path)))
    .sort();
}

/** A hashed bundle's name (`/_astro/site.Bx1z9.css`), which changes with the toolchain alone. */
const BUNDLE_NAME = /\/_astro\/[^"'\s)]+/g;

const INLINE_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|em|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)\b[^>]*>/g;

/**
 * What a person reads on a page, one block per line, and what crawlers and agents read: head
 * tags, JSON-LD and the JSON data blocks (the WebMCP tools a page registers).
 */
function pageRecord(html: string): string {
  const head = [...html.matchAll(/<(?:meta|link)\b[^>]*>/g)].map((match) => match[0]).join('\n');
  const structuredData = [...html.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1])
    .join('\n');
  // Line breaks in the markup are white space like any other; blocks end lines. Inline tags leave
  // nothing behind, so a space lost between two inline elements shows as words run together.
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')
    .replace(/\s+/g, ' ')
    .replace(/<\/(p|h[1-6]|li|dt|dd|tr|div|section|article|header|footer|nav|main|pre)>|<br\s*\/?>/g, '\n')
    .replace(INLINE_TAG, '')
    .replace(/<[^>]+>/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  return `${head}\n--- JSON-LD and JSON data ---\n${structuredData}\n--- text ---\n${text}`.replace(
    BUNDLE_NAME,
    '/_astro/*',
  );
}

async function record(clientDir: string): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const path of filesUnder(clientDir)) {
    const full = join(clientDir, path);
    const extension = extname(path);
    if (IMAGE_EXTENSIONS.has(extension)) {
      const { width, height, format } = await sharp(full).metadata();
      snapshot[path] = `${format} ${width}x${height}`;
    } else if (extension === '.html') {
      snapshot[path] = pageRecord(readFileSync(full, 'utf8'));
    } else {
      snapshot[path] = readFileSync(full, 'utf8').replace(BUILD_DATE_LINE, 'Expires: <build date + 180 days>');
    }
  }
  return snapshot;
}

/** The first line where two records part, with its neighbours: enough to say why they differ. */
function firstDifference(before: string, after: string): string {
  const [a, b] = [before.split('\n'), after.split('\n')];
  let line = 0;
  while (line < a.length && a[line] === b[line]) line += 1;
  return `  line ${line + 1}\n  - ${a[line] ?? '(end)'}\n  + ${b[line] ?? '(end)'}`;
}

function compare(before: Snapshot, after: Snapshot): string[] {
  const report: string[] = [];
  for (const path of Object.keys(before)) if (!(path in after)) report.push(`removed ${path}`);
  for (const path of Object.keys(after)) if (!(path in before)) report.push(`added ${path}`);
  for (const [path, text] of Object.entries(before)) {
    const now = after[path];
    if (now !== undefined && now !== text) report.push(`changed ${path}\n${firstDifference(text, now)}`);
  }
  return report;
}

const [command, first, second] = process.argv.slice(2);
if (command === 'record' && first !== undefined) {
  const snapshot = await record(second ?? DEFAULT_CLIENT_DIR);
  writeFileSync(first, `${JSON.stringify(snapshot, null, 1)}\n`);
  console.log(`${Object.keys(snapshot).length} files recorded in ${first}`);
} else if (command === 'compare' && first !== undefined && second !== undefined) {
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const report = compare(read(first), read(second));
  console.log(report.length === 0 ? 'No differences.' : report.join('\n'));
  process.exitCode = report.length === 0 ? 0 : 1;
} else {
  console.error('Usage: output-snapshot.ts record <file.json> [client dir] | compare <before.json> <after.json>');
  process.exitCode = 2;
}
