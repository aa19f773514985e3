import { bakedMismatches, type BakedEnvironment, type BakedMismatch } from '../../config/baked-config.ts';

/** The manifest's name inside the build output (dist/); scripts/start.mjs reads it too. */
export const BUILD_MANIFEST_FILE = 'build-manifest.json';

/**
 * What a build was made from, written by scripts/write-build-manifest.ts at the end of
 * `npm run build`. Pages and documents carry these values (absolute links carry SITE_URL;
 * pricing, the OpenAPI description and the developer docs quote quotas and limits), so a server
 * may only serve a build whose baked environment matches its own.
 */
export interface BuildManifest {
  /** When the build finished (ISO 8601). */
  builtAt: string;
  /** SHA-256 over the sources the build reads (scripts/source-hash.mjs); `npm start` rebuilds when it changes. */
  sourceHash: string;
  /** The effective value of every baked variable at build (functions/config/baked-config.ts). */
  environment: BakedEnvironment;
}

/** Thrown when the build was made for another environment; the message names each variable and what to run. */
export class BuildMismatch extends Error {
  constructor(readonly variables: readonly BakedMismatch[]) {
    super(
      [
        'The build in dist/ was made for another configuration, so its pages and documents would publish values this server does not use:',
        ...variables.map(
          ({ variable, built, now, nowFrom }) =>
            `  ${variable}: built with ${JSON.stringify(built)}, now ${JSON.stringify(now)}${nowFrom === undefined ? '' : ` (${variable} is not set: the ${nowFrom})`}`,
        ),
        'Run `npm run build` with this environment (`npm start` rebuilds by itself when the build does not match).',
      ].join('\n'),
    );
    this.name = 'BuildMismatch';
  }
}

/** Throws a BuildMismatch unless every baked variable of `env` means what it meant at build. */
export function assertBuildMatches(manifest: BuildManifest, env: Record<string, string | undefined>): void {
  const mismatches = bakedMismatches(manifest.environment, env);
  if (mismatches.length > 0) throw new BuildMismatch(mismatches);
}
