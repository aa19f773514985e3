/** What tests/support/fetch-host.ts bundles: the function factory, and the build reader that feeds it BuildData. */
export { createFetchHandler } from '../../functions/hosts/fetch/create-fetch-handler.ts';
export { buildDataOf } from '../../functions/hosts/fetch/build-data.ts';
export { loadBuild } from '../../functions/hosts/static/build-output.ts';
