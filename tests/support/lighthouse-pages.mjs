// Lighthouse on several pages, one after the other, in one process and one running Chromium:
// loading Lighthouse takes longer than auditing a page, so its command line, one process per
// page, spent most of its time loading. Run with a Node.js that Lighthouse supports
// (tests/support/tool-node.ts):
//
//   node lighthouse-pages.mjs <Chromium's debugging port> <category,...> <max wait for load, ms> <url>...
//
// Prints the reports (Lighthouse's result objects, as `--output=json` writes them) as one JSON
// array, in the order of the URLs. A page Lighthouse could not audit has its `runtimeError` set.
import lighthouse from 'lighthouse';

const [port, categories, maxWaitForLoad, ...urls] = process.argv.slice(2);
if (port === undefined || categories === undefined || maxWaitForLoad === undefined || urls.length === 0)
  throw new Error('usage: lighthouse-pages.mjs <port> <category,...> <max wait for load, ms> <url>...');

const reports = [];
for (const url of urls) {
  const result = await lighthouse(url, {
    port: Number(port),
    onlyCategories: categories.split(','),
    maxWaitForLoad: Number(maxWaitForLoad),
    logLevel: 'error',
    output: 'json',
  });
  if (result === undefined) throw new Error(`Lighthouse gave no result for ${url}`);
  reports.push(result.lhr);
}
process.stdout.write(JSON.stringify(reports));
