/**
 * The build's data as a module: scripts/bundle-functions.ts resolves this name to the values
 * loadBuild reads from dist/ (functions/serverless/build-data.ts), embedded in each host's bundle.
 */
declare module 'portfolio:build-data' {
  const build: import('../serverless/build-data.ts').BuildData;
  export default build;
}
