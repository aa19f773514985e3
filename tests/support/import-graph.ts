import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One import of a module under functions/: who imports whom, both relative to functions/. */
export interface ImportEdge {
  from: string;
  to: string;
  /** True for `import type`: erased at run time, but a dependency of the code all the same. */
  typeOnly: boolean;
}

const IMPORT = /^(?:import|export)\s+(type\s)?[^;]*?from\s+'(\.[^']+)'/gms;

/** Every relative import between the TypeScript modules under `root` (type-only ones included). */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const [, typeOnly, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), specifier!);
      if (!target.endsWith('.ts')) continue;
      edges.push({
        from: path.relative(root, file),
        to: path.relative(root, target),
        typeOnly: typeOnly !== undefined,
      });
    }
  }
  return edges;
}

/** The import circles among the modules: each strongly connected group of more than one (Tarjan). */
export function importCircles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    for (const target of next.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(module, Math.min(low.get(module)!, index.get(target)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      group.push(member);
      if (member === module) break;
    }
    if (group.length > 1) circles.push(group.sort());
  };
  for (const module of next.keys()) if (!index.has(module)) visit(module);
  return circles;
}
