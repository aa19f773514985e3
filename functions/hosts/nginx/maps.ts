import path from 'node:path';
import type { HeaderTable, ServedFile } from '../static/built-file-headers.ts';
import { mediaTypeFor } from '../static/media-types.ts';
import { notFoundHeaders } from '../static/not-found-headers.ts';
import { exactCaseEntries, indent, mapEntries, PREFIX, quote, variableFor } from './syntax.ts';

/**
 * Accept preferring Markdown to HTML, as functions/http/prefers-markdown.ts decides it, in
 * regular expressions (a map cannot compare q-values): text/markdown named with a q above 0 and
 * text/html not named, or text/markdown without a q (1) and text/html with one below 1. Only
 * text/markdown at a q below 1 beside text/html at a lower one is left out: no agent sends it.
 */
const PREFERS_MARKDOWN = [
  '~*^(?!.*text/html)(?=.*text/markdown(?!\\s*;\\s*q=0(\\.0*)?\\s*(,|$)))',
  '~*^(?=.*text/markdown\\s*(,|$))(?=.*text/html\\s*;\\s*q=0)',
];

/**
 * Each served file (by its path under the root) and the headers it answers with; the 404 pages'
 * as 404 answers; and each Markdown twin as its page's URL answers it (table.negotiated), keyed
 * by the twin and the file together (`/index.md/index.md`), as the header maps read
 * `$portfolio_twin$uri`: the twin that negotiation chose, empty for any other request, then the
 * file served. No file can have such a path, since its first part is a file.
 */
export function headersByFile(
  table: HeaderTable,
  served: readonly ServedFile[],
  twins: readonly (readonly [string, string])[],
  common: Readonly<Record<string, string>>,
): Map<string, Readonly<Record<string, string>>> {
  const byFile = new Map<string, Readonly<Record<string, string>>>();
  for (const [page, twin] of twins) {
    const atPage = table.negotiated.get(page);
    if (atPage !== undefined) byFile.set(`${twin}${atPage.file}`, atPage.headers);
  }
  const hasTwin = table.notFoundMarkdown !== undefined;
  for (const page of [table.notFound, table.notFoundMarkdown])
    if (page !== undefined) byFile.set(page.file, notFoundHeaders(common, page.headers, hasTwin));
  for (const { file, headers } of served) {
    const known = byFile.get(file);
    // nginx picks a file's headers by the file, so one file cannot answer two paths differently.
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(headers))
      throw new Error(`${file} is served at two paths with different headers`);
    byFile.set(file, headers);
  }
  return byFile;
}

/** The media type nginx gives a file by its extension: the project's own table, for every extension the build has. */
export function typesByExtension(files: Iterable<string>): Map<string, string> {
  const types = new Map<string, string>();
  for (const file of files) {
    const extension = path.posix.extname(file).slice(1).toLowerCase();
    if (extension !== '') types.set(extension, mediaTypeFor(`/file.${extension}`));
  }
  return types;
}

/**
 * `add_header` lines for every header of the table but Content-Type (which `types` and
 * `default_type` give): a header with one value on every file is written as it is; the others
 * come from a map on the twin negotiation chose and the file served ($uri once try_files has
 * found it; see headersByFile), empty (so not sent, ngx_http_headers_module, "add_header") where
 * a file has none.
 */
export function headerDirectives(byFile: ReadonlyMap<string, Readonly<Record<string, string>>>) {
  const names = new Set([...byFile.values()].flatMap((headers) => Object.keys(headers)));
  names.delete('content-type');
  const maps: string[] = [];
  const addHeaders: string[] = [];
  for (const name of [...names].sort()) {
    const values = [...byFile.values()].map((headers) => headers[name]);
    const first = values[0];
    if (first !== undefined && values.every((value) => value === first)) {
      addHeaders.push(`add_header ${name} ${quote(first)} always;`);
      continue;
    }
    const variable = variableFor(name);
    const entries = mapEntries(
      [...byFile].flatMap(([file, headers]) => (headers[name] === undefined ? [] : [[file, headers[name]] as const])),
    );
    // volatile: read again after an internal redirect (the 404 page), not the first value kept.
    maps.push(`map $${PREFIX}_twin$uri ${variable} {`, ...indent(['volatile;', 'default "";', ...entries]), '}', '');
    addHeaders.push(`add_header ${name} ${variable} always;`);
  }
  return { maps, addHeaders };
}

/** What the maps are made from: the table's served paths and twins (the service's own left out). */
export interface MapSources {
  table: HeaderTable;
  served: readonly (readonly [string, ServedFile])[];
  twins: readonly (readonly [string, string])[];
  /** The header maps (headerDirectives), written after the others. */
  headerMaps: readonly string[];
}

/**
 * The `map` blocks of the site: from the request's path (and Accept) to the file try_files
 * serves, the path in its own case, the redirect of a trailing slash, the Markdown twin and the
 * 404 page; then one map per header whose value differs between files.
 */
export function siteMaps({ table, served, twins, headerMaps }: MapSources): string[] {
  const notFound = table.notFound?.file;
  const notFoundMarkdown = table.notFoundMarkdown?.file;
  const servedMap = exactCaseEntries(served.map(([urlPath]) => urlPath));
  const fileMap = mapEntries(served.map(([urlPath, { file }]) => [urlPath, file] as const));
  // Every path the Node server redirects to from the same path with a trailing slash (its own paths too).
  const slashMap = mapEntries(
    [...table.paths.keys()].filter((urlPath) => urlPath !== '/').map((urlPath) => [`1${urlPath}/`, urlPath] as const),
    false,
  );
  const twinMap = mapEntries(twins.map(([page, twin]) => [`1${page}`, twin] as const));
  const notFoundMap =
    notFoundMarkdown === undefined
      ? [`default ${quote(notFound ?? '')};`]
      : [
          `default ${quote(notFound ?? '')};`,
          `"~^1" ${quote(notFoundMarkdown)};`,
          `"~\\.md$" ${quote(notFoundMarkdown)};`,
        ];
  return [
    '# Whether Accept prefers Markdown (functions/http/prefers-markdown.ts).',
    `map $http_accept $${PREFIX}_markdown {`,
    // Written as they are: a map's key is not read for variables, and these hold `$` and `\`.
    ...indent(['default "";', ...PREFERS_MARKDOWN.map((pattern) => `"${pattern}" 1;`)]),
    '}',
    '',
    '# The file of each served path: pages at their clean URL, a document built elsewhere at its URL.',
    `map $uri $${PREFIX}_file {`,
    ...indent(['default "";', ...fileMap]),
    '}',
    '',
    '# The served path a request names, in its own case (the strings of a map match ignoring case).',
    `map $uri $${PREFIX}_served {`,
    ...indent(['default "";', ...servedMap]),
    '}',
    '',
    '# GET and HEAD, the methods a trailing slash is redirected for.',
    `map $request_method $${PREFIX}_redirectable {`,
    ...indent(['default "";', 'GET 1;', 'HEAD 1;']),
    '}',
    '',
    '# A served path asked for with a trailing slash, and the path it is redirected to.',
    `map $${PREFIX}_redirectable$uri $${PREFIX}_without_slash {`,
    ...indent(['default "";', ...slashMap]),
    '}',
    '',
    "# A page's Markdown twin, when Accept prefers Markdown.",
    `map $${PREFIX}_markdown$uri $${PREFIX}_twin {`,
    ...indent(['default "";', ...twinMap]),
    '}',
    '',
    '# The 404 page, or its Markdown twin for a request that asked for Markdown or a `.md` URL.',
    `map $${PREFIX}_markdown$uri $${PREFIX}_not_found {`,
    ...indent(notFoundMap),
    '}',
    '',
    ...headerMaps,
  ];
}
