// The compact report `npm run audit:agents` prints (scripts/audit-agents.ts): one line per
// Lighthouse audit and per afdocs check, with what a failing one points at.
import type { AfdocsReport } from '../tests/support/afdocs.ts';
import { verdict, type LighthouseAudit, type LighthouseReport, type Verdict } from '../tests/support/lighthouse.ts';

/** How many rows of a failing audit's details, and how long a line, the report shows. */
const DETAIL_ROWS = 5;
const LINE_WIDTH = 140;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LINE_WIDTH ? `${line.slice(0, LINE_WIDTH - 1)}…` : line;
}

/** The text cells of a details row: a table row, or the rows of a list section's table. */
function rowTexts(item: unknown): string[] {
  if (typeof item !== 'object' || item === null) return [];
  const row = item as Record<string, unknown>;
  const nested = (row.value as { items?: unknown[] } | undefined)?.items;
  if (Array.isArray(nested)) return nested.flatMap(rowTexts);
  const cells = ['tool', 'element', 'issue', 'message', 'description', 'index', 'line']
    .map((key) => row[key])
    .map((cell) => (typeof cell === 'object' && cell !== null ? (cell as { snippet?: unknown }).snippet : cell))
    .filter((cell): cell is string | number => typeof cell === 'string' || typeof cell === 'number');
  return cells.length === 0 ? [] : [cells.join(' | ')];
}

/** What an audit says beyond its verdict: its value, its explanation, and for a finding its rows. */
function auditNotes(audit: LighthouseAudit, found: Verdict): string[] {
  const summary = [audit.displayValue, audit.explanation, audit.errorMessage].filter((text) => text !== undefined);
  const rows = found === 'fail' || found === 'info' ? (audit.details?.items ?? []).flatMap(rowTexts) : [];
  // An informative audit that lists nothing (no WebMCP tool on the page, say) says so.
  const nothing = found === 'info' && audit.scoreDisplayMode === 'informative' && summary.length + rows.length === 0;
  return [
    ...(nothing ? ['      (lists nothing)'] : []),
    ...summary.map((text) => `      ${clip(text)}`),
    ...rows.slice(0, DETAIL_ROWS).map((text) => `      - ${clip(text)}`),
    ...(rows.length > DETAIL_ROWS ? [`      - … ${rows.length - DETAIL_ROWS} more`] : []),
  ];
}

/** One block per category: its score, then each of its audits (weight 0 ones included). */
export function lighthouseLines(report: LighthouseReport, categories: readonly string[]): string[] {
  const lines = [`Lighthouse ${report.lighthouseVersion} on ${report.finalDisplayedUrl}`];
  if (report.runtimeError !== undefined)
    return [...lines, `  runtime error ${report.runtimeError.code}: ${clip(report.runtimeError.message)}`];
  for (const id of categories) {
    const category = report.categories[id];
    if (category === undefined) {
      lines.push(`  ${id}: not in this Lighthouse`);
      continue;
    }
    const found = category.auditRefs
      .map((ref) => report.audits[ref.id]!)
      .map((audit) => [audit, verdict(audit)] as const);
    const count = (wanted: Verdict) => found.filter(([, v]) => v === wanted).length;
    lines.push(
      `  ${id}: score ${category.score ?? 'none'}; ${count('pass')} pass, ${count('fail')} fail, ` +
        `${count('info')} informative, ${count('n/a')} not applicable, ${count('error')} error`,
    );
    for (const [audit, v] of found) {
      lines.push(`    ${v.padEnd(5)} ${String(audit.score ?? '-').padEnd(4)} ${audit.id}`);
      lines.push(...auditNotes(audit, v));
    }
  }
  return lines;
}

/** Audits Lighthouse could not run, and a page it could not load: failures of the tool, not the site. */
export function lighthouseToolFailures(report: LighthouseReport): string[] {
  if (report.runtimeError !== undefined)
    return [`Lighthouse: ${report.runtimeError.code} on ${report.finalDisplayedUrl}`];
  return Object.values(report.audits)
    .filter((audit) => audit.scoreDisplayMode === 'error')
    .map((audit) => `Lighthouse: ${audit.id} could not run: ${audit.errorMessage ?? 'no message'}`);
}

/** The score, the counts, then one line per check with its message. */
export function afdocsLines(report: AfdocsReport, version: string, target: string): string[] {
  const count = (status: string) => report.results.filter((check) => check.status === status).length;
  return [
    `afdocs ${version} on ${target}: score ${report.scoring.overall}/100 (${report.scoring.grade}); ` +
      `${count('pass')} pass, ${count('warn')} warn, ${count('fail')} fail, ${count('skip')} skip, ${count('error')} error`,
    ...report.results.map((check) => `    ${check.status.padEnd(5)} ${check.id}: ${clip(check.message)}`),
  ];
}

/** Checks afdocs could not run: failures of the tool, not findings about the site. */
export function afdocsToolFailures(report: AfdocsReport): string[] {
  return report.results
    .filter((check) => check.status === 'error')
    .map((check) => `afdocs: ${check.id} could not run: ${check.message}`);
}
