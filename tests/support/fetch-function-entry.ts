/** What tests/support/fetch-host.ts bundles: the function factory, and the build reader that feeds it BuildData. */
export { createFetchHandler } from '../../functions/serverless/create-fetch-handler.ts';
export { buildDataOf } from '../../functions/serverless/build-data.ts';
export { loadBuild } from '../../functions/server/build-output.ts';
