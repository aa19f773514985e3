import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'precompress-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** scripts/precompress.ts on `dir`, with the build cache in `cache`; its summary line. */
function precompress(dir: string, cache: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'scripts/precompress.ts', dir], {
    cwd: ROOT,
    env: { ...process.env, BUILD_CACHE_DIR: cache },
    encoding: 'utf8',
  });
}

function page(n: number): string {
  return `<!doctype html><title>Page ${n}</title>${'<p>Some words that repeat, as pages do. </p>'.repeat(40 + n)}`;
}

describe('scripts/precompress.ts with the build cache', () => {
  it('writes the same bytes as compressing afresh, and on a rebuild compresses only the changed file', () => {
    const client = path.join(work, 'client');
    const cache = path.join(work, 'cache');
    mkdirSync(path.join(client, 'projects'), { recursive: true });
    for (let n = 0; n < 6; n++) writeFileSync(path.join(client, 'projects', `p${n}.html`), page(n));
    writeFileSync(path.join(client, 'small.html'), '<p>too small to gain</p>');

    expect(precompress(client, cache)).toContain('12 variants written under');
    expect(existsSync(path.join(client, 'small.html.br'))).toBe(false);
    const first = readFileSync(path.join(client, 'projects/p3.html.br'));

    writeFileSync(path.join(client, 'projects/p3.html'), page(30));
    expect(precompress(client, cache)).toMatch(/12 variants written under .*\(2 compressed, 10 from the build cache\)/);

    for (let n = 0; n < 6; n++) {
      const file = path.join(client, 'projects', `p${n}.html`);
      const body = readFileSync(file);
      const brotli = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      expect(readFileSync(`${file}.br`).equals(brotli)).toBe(true);
      expect(readFileSync(`${file}.gz`).equals(gzipSync(body, { level: 9 }))).toBe(true);
    }
    expect(readFileSync(path.join(client, 'projects/p3.html.br')).equals(first)).toBe(false);
  });
});
