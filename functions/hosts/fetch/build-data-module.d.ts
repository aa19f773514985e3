/**
 * The build's data as a module: scripts/bundle-functions.ts resolves this name to the values
 * loadBuild reads from dist/ (functions/hosts/fetch/build-data.ts), embedded in each host's bundle.
 */
declare module 'portfolio:build-data' {
  // An ambient module may not import a relative path (TS2439), so the type is named inline.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const build: import('./build-data.ts').BuildData;
  export default build;
}
