import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../functions/config/env.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { findOperation, type OpenApiDocument } from '../support/openapi.ts';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';

const run = promisify(execFile);

// The description as the production server serves it (static files); the live answers are checked
// against it in process, in tests/api/openapi.test.ts.
let server: InProcessService;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '1000/60', KEYS_RATE_LIMIT: '100/3600' });
  doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(() => server?.stop());

describe('the published description', () => {
  it('is served as JSON and as YAML, the same document, generated from the current code', async () => {
    const json = await fetch(`${server.baseUrl}/openapi.json`);
    const yaml = await fetch(`${server.baseUrl}/openapi.yaml`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(parse(await yaml.text())).toEqual(await json.json());
    expect(doc, 'dist/ is older than the code: run npx astro build').toEqual(buildOpenApiDocument(loadConfig()));
    for (const id of Object.keys(OPERATIONS)) expect(findOperation(doc, id).operation.summary).toBeTruthy();
  });

  it('passes Redocly lint (recommended rules) with no errors and no warnings', async () => {
    const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
    const { stdout } = await run(
      process.execPath,
      [cli, 'lint', 'dist/client/openapi.json', '--config', 'redocly.yaml', '--format=json'],
      {
        cwd: ROOT,
        // Offline: no telemetry, no update check.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
