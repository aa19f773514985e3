import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Every module the production server loads, found by following the value imports (type-only
 * imports are erased by the compiler) from its entry point. Packages are reported by name.
 */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [path.join(ROOT, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.ts')) continue;
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
      if (specifier === undefined) continue;
      pending.push(specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : specifier);
    }
  }
  return seen;
}

describe('what the production server loads', () => {
  const modules = [...loadedBy('functions/server/main.ts')];

  it('reaches the MCP servers and the API (the walk itself works)', () => {
    expect(modules).toContain(path.join(ROOT, 'functions/mcp/product-tools.ts'));
    expect(modules).toContain(path.join(ROOT, 'functions/projects/schema.ts'));
    expect(modules).toContain('zod');
  });

  it('loads neither the OpenAPI generator nor functions/openapi/', () => {
    expect(
      modules.filter(
        (name) =>
          name.startsWith('@asteasolutions/zod-to-openapi') ||
          name.includes(`${path.sep}functions${path.sep}openapi${path.sep}`),
      ),
    ).toEqual([]);
  });
});
