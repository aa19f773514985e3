import { fetchNode } from '../../scripts/fetch-node.mjs';

/** The oldest Node.js that Lighthouse 13 and the MCP Inspector 2.12 declare they run on. */
const TOOLS_NODE = [22, 19] as const;

function isAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [actualMajor = 0, actualMinor = 0] = version.split('.').map(Number);
  return actualMajor > major || (actualMajor === major && actualMinor >= minor);
}

/**
 * A Node.js binary new enough for the command-line tools the tests run: this one when it is, else
 * the pinned Node 24 from scripts/fetch-node.mjs (fetched once into node_modules/.cache).
 */
export function toolsNode(): string {
  return isAtLeast(process.versions.node, TOOLS_NODE) ? process.execPath : fetchNode(24);
}
