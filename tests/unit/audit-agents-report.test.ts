import { describe, expect, it } from 'vitest';
import {
  afdocsLines,
  afdocsToolFailures,
  lighthouseLines,
  lighthouseToolFailures,
} from '../../scripts/audit-agents-report.ts';
import type { AfdocsReport } from '../support/afdocs.ts';
import type { LighthouseAudit, LighthouseReport } from '../support/lighthouse.ts';

function audit(id: string, scoreDisplayMode: string, score: number | null, more: Partial<LighthouseAudit> = {}) {
  return { id, title: id, scoreDisplayMode, score, ...more };
}

function lighthouseReport(audits: LighthouseAudit[], more: Partial<LighthouseReport> = {}): LighthouseReport {
  return {
    lighthouseVersion: '13.5.0',
    finalDisplayedUrl: 'http://localhost:1/',
    categories: {
      'agentic-browsing': { score: 0.5, auditRefs: audits.map(({ id }) => ({ id, weight: 1 })) },
    },
    audits: Object.fromEntries(audits.map((found) => [found.id, found])),
    ...more,
  };
}

const afdocsReport = (statuses: AfdocsReport['results'][number]['status'][]): AfdocsReport => ({
  results: statuses.map((status, index) => ({ id: `check-${index}`, category: 'c', status, message: status })),
  summary: { total: 0, pass: 0, warn: 0, fail: 0, skip: 0, error: 0 },
  scoring: { overall: 50, grade: 'F' },
});

describe('the audit:agents report', () => {
  it('gives each Lighthouse audit its verdict and lists what a failing one points at', () => {
    const lines = lighthouseLines(
      lighthouseReport([
        audit('llms-txt', 'binary', 1),
        audit('ard-schema', 'binary', 0, {
          details: { items: [{ element: 'Root', issue: "Missing required 'specVersion' root property." }] },
        }),
        audit('webmcp-form-coverage', 'notApplicable', null),
        audit('webmcp-registered-tools', 'informative', 1),
      ]),
      ['agentic-browsing'],
    );
    expect(lines).toEqual([
      'Lighthouse 13.5.0 on http://localhost:1/',
      '  agentic-browsing: score 0.5; 1 pass, 1 fail, 1 informative, 1 not applicable, 0 error',
      '    pass  1    llms-txt',
      '    fail  0    ard-schema',
      "      - Root | Missing required 'specVersion' root property.",
      '    n/a   -    webmcp-form-coverage',
      '    info  1    webmcp-registered-tools',
      '      (lists nothing)',
    ]);
  });

  it('counts a low Lighthouse score as a result, and an audit or page it could not run as a tool failure', () => {
    expect(lighthouseToolFailures(lighthouseReport([audit('ard-schema', 'binary', 0)]))).toEqual([]);
    expect(
      lighthouseToolFailures(lighthouseReport([audit('llms-txt', 'error', null, { errorMessage: 'timed out' })])),
    ).toEqual(['Lighthouse: llms-txt could not run: timed out']);
    expect(
      lighthouseToolFailures(lighthouseReport([], { runtimeError: { code: 'NO_FCP', message: 'no paint' } })),
    ).toEqual(['Lighthouse: NO_FCP on http://localhost:1/']);
  });

  it('counts failing afdocs checks as results, and a check it could not run as a tool failure', () => {
    expect(afdocsToolFailures(afdocsReport(['pass', 'warn', 'fail', 'skip']))).toEqual([]);
    expect(afdocsToolFailures(afdocsReport(['pass', 'error']))).toEqual(['afdocs: check-1 could not run: error']);
    expect(afdocsLines(afdocsReport(['pass', 'fail']), '0.22.2', 'http://127.0.0.1:1')).toEqual([
      'afdocs 0.22.2 on http://127.0.0.1:1: score 50/100 (F); 1 pass, 0 warn, 1 fail, 0 skip, 0 error',
      '    pass  check-0: pass',
      '    fail  check-1: fail',
    ]);
  });
});
