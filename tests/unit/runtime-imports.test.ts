import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importEdges, type ImportEdge } from '../support/import-graph.ts';

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
  const modules = [...loadedBy('functions/hosts/node/main.ts')];

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

/**
 * The layers of functions/, lowest first, by top-level folder. A module may import its own layer
 * and the ones below, with the exceptions the rules below name; docs/architecture.md explains them.
 */
const LAYERS = {
  /**
   * The configuration, the log, quota and request primitives, what pages and documents share, the
   * operation catalog; in this order, lowest first, which holds inside the layer too.
   */
  foundation: ['config', 'log', 'limits', 'http', 'site', 'operations'],
  /** What the service does; each owns its handlers, schemas and store interfaces. */
  capability: ['batch', 'contact', 'content', 'discovery', 'jobs', 'keys', 'mcp', 'projects', 'search', 'service'],
  /** The storage engines: state/ (what both share), state/sqlite, state/postgres. */
  engine: ['state'],
  /** What puts the rest together and runs it: the wiring, one room per host the service runs on, the CLIs, the OpenAPI generator. */
  host: ['app', 'hosts', 'cli', 'openapi'],
} as const;

type Layer = keyof typeof LAYERS;

function layerOf(module: string): Layer {
  const folder = module.split(path.sep)[0]!;
  const layer = (Object.keys(LAYERS) as Layer[]).find((name) => (LAYERS[name] as readonly string[]).includes(folder));
  if (layer === undefined) throw new Error(`${module} is in no layer: add its folder to LAYERS`);
  return layer;
}

/** A capability's store interface (contact/message-store.ts), the one kind of capability module an engine may import. */
const isStoreInterface = (module: string) => layerOf(module) === 'capability' && module.endsWith('-store.ts');

/** A module's top-level folder under functions/ (`http` for `http/router.ts`). */
const folderOf = (module: string) => module.split(path.sep)[0]!;

/** The rooms of functions/hosts/ every host may build on; any other room is one host's own. */
const SHARED_HOST_ROOMS = ['static', 'fetch'] as const;
/** A module's room under functions/hosts/ (`node` for `hosts/node/main.ts`), or undefined outside it. */
const hostRoomOf = (module: string) => {
  const [top, room] = module.split(path.sep);
  return top === 'hosts' ? room : undefined;
};

const FUNCTIONS = path.join(ROOT, 'functions');
const edges = importEdges(FUNCTIONS);
const shown = (list: readonly ImportEdge[]) => list.map(({ from, to }) => `${from} -> ${to}`);

describe('imports only point down (functions/)', () => {
  it('sees the whole tree (the walk itself works)', () => {
    expect(shown(edges)).toContain(`app${path.sep}routes.ts -> service${path.sep}health.ts`);
    expect(edges.filter((edge) => edge.typeOnly).length).toBeGreaterThan(0);
  });

  it('has no module at the root of functions/: each one is in the folder of its layer', () => {
    expect(edges.map(({ from }) => from).filter((module) => !module.includes(path.sep))).toEqual([]);
    for (const { from, to } of edges) [from, to].forEach(layerOf);
  });

  it('http/, limits/ and the rest of the foundation import no capability, engine or host', () => {
    expect(
      shown(edges.filter(({ from, to }) => layerOf(from) === 'foundation' && layerOf(to) !== 'foundation')),
    ).toEqual([]);
  });

  it('inside the foundation, a folder imports only itself and the folders before it (config, log, limits, http, site, operations)', () => {
    const order: readonly string[] = LAYERS.foundation;
    const rank = (module: string) => order.indexOf(folderOf(module));
    expect(shown(edges.filter(({ from, to }) => layerOf(from) === 'foundation' && rank(to) > rank(from)))).toEqual([]);
  });

  it('capabilities import no engine and no host', () => {
    expect(
      shown(edges.filter(({ from, to }) => layerOf(from) === 'capability' && ['engine', 'host'].includes(layerOf(to)))),
    ).toEqual([]);
  });

  it('an engine imports, of the capabilities, only the store interfaces it implements', () => {
    const upward = edges.filter(
      ({ from, to }) =>
        layerOf(from) === 'engine' &&
        (layerOf(to) === 'host' || (layerOf(to) === 'capability' && !isStoreInterface(to))),
    );
    expect(shown(upward)).toEqual([]);
  });

  it('no module imports a host except another host', () => {
    expect(shown(edges.filter(({ from, to }) => layerOf(to) === 'host' && layerOf(from) !== 'host'))).toEqual([]);
  });

  it("a host's room imports no other host's room: only static/ and fetch/, which every host shares", () => {
    const shared: readonly (string | undefined)[] = SHARED_HOST_ROOMS;
    const sideways = edges.filter(({ from, to }) => {
      const [fromRoom, toRoom] = [hostRoomOf(from), hostRoomOf(to)];
      if (fromRoom === undefined || toRoom === undefined || fromRoom === toRoom) return false;
      // static/ is the bottom room; fetch/ may build on it; the others on both.
      if (fromRoom === 'static') return true;
      if (fromRoom === 'fetch') return toRoom !== 'static';
      return !shared.includes(toRoom);
    });
    expect(shown(sideways)).toEqual([]);
  });

  it('no two modules import each other, directly or through others', () => {
    expect(importCircles(edges)).toEqual([]);
  });

  it('no two folders import each other, directly or through others', () => {
    const folderEdges = edges
      .map(({ from, to, typeOnly }) => ({ from: folderOf(from), to: folderOf(to), typeOnly }))
      .filter(({ from, to }) => from !== to);
    expect(importCircles(folderEdges)).toEqual([]);
  });
});
