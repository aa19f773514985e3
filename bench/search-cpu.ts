/**
 * In-process micro-benchmark of the search function on an index of N projects (the site's own,
 * topped up by bench/scale/generate-projects.ts, plus docs, operations and tools): CPU per query
 * not seen before, without HTTP. The index goes through its JSON form, as the server loads it.
 *   node --import tsx bench/search-cpu.ts [projects=19] [queries=3000]
 * With SEARCH_PROFILE=<file>, the measured queries (only they) are profiled into that .cpuprofile.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SearchIndex } from '../functions/search/search-index.ts';
import { searchDocumentsAt } from './search/search-documents.ts';
import { freshQuery } from './search/fresh-queries.ts';

const projects = Number(process.argv[2] ?? 19);
const queries = Number(process.argv[3] ?? 3000);

const json = JSON.stringify(SearchIndex.build(searchDocumentsAt(projects)));
const loadStart = process.cpuUsage();
const index = SearchIndex.fromJSON(json);
const load = process.cpuUsage(loadStart);

// Warm up the JIT on queries the measured run does not repeat.
for (let n = 0; n < 500; n++) index.search(freshQuery(n + 100_000), { limit: 10 });
const profile = process.env.SEARCH_PROFILE;
const session = profile === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const start = process.cpuUsage();
let results = 0;
for (let n = 0; n < queries; n++) results += index.search(freshQuery(n), { limit: 10 }).hits.length;
const used = process.cpuUsage(start);
if (session !== undefined && profile !== undefined) {
  writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
}
const perQuery = (used.user + used.system) / queries;
process.stdout.write(
  `${projects} projects: index ${json.length} bytes, load ${((load.user + load.system) / 1000).toFixed(1)} ms CPU, ` +
    `${perQuery.toFixed(0)} µs CPU per query (${queries} queries, ${(results / queries).toFixed(1)} results each)\n`,
);
