import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { newRequestId, OUR_REQUEST_ID, requestIdsFor } from '../../functions/http/request-id.ts';

const MANY = 100_000;

/** Ids made by a process of its own, as another instance or a restart would make them. */
function idsOfAnotherProcess(count: number): string[] {
  const script = `import { newRequestId } from './functions/http/request-id.ts';
const ids = []; for (let i = 0; i < ${count}; i++) ids.push(newRequestId());
process.stdout.write(JSON.stringify(ids));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as string[];
}

describe('request ids', () => {
  it('are all different within a process, and look like ours', () => {
    const ids = Array.from({ length: MANY }, () => requestIdsFor(undefined).requestId);
    expect(new Set(ids).size).toBe(MANY);
    for (const id of [ids[0]!, ids.at(-1)!]) {
      expect(id).toMatch(OUR_REQUEST_ID);
      // Still a well-formed id, should it be sent on to another service as X-Request-Id.
      expect(requestIdsFor(id).clientRequestId).toBe(id);
    }
  });

  it('never repeat across two processes (two instances, or one restarted)', () => {
    const here = Array.from({ length: 10_000 }, () => newRequestId());
    const first = idsOfAnotherProcess(10_000);
    const second = idsOfAnotherProcess(10_000);
    const all = new Set([...here, ...first, ...second]);
    expect(all.size).toBe(30_000);
    // Each process counts from 1 under a prefix of its own.
    const prefixOf = (id: string) => id.slice(0, id.lastIndexOf('-'));
    expect(new Set([here[0]!, first[0]!, second[0]!].map(prefixOf)).size).toBe(3);
    expect(first[0]).toMatch(/-1$/);
    expect(second[0]).toMatch(/-1$/);
  });

  it('keep a caller-sent id beside ours, never instead of it', () => {
    const ids = requestIdsFor('trace-abc-12345');
    expect(ids.clientRequestId).toBe('trace-abc-12345');
    expect(ids.requestId).toMatch(OUR_REQUEST_ID);
    expect(requestIdsFor('<bad id>').clientRequestId).toBeUndefined();
  });
});
