import { createHash } from 'node:crypto';
import type { APIRoute } from 'astro';
import { AGENT_GUIDE_PATH } from '../../../../functions/docs/doc-page.ts';
import { docPages, docTwinAt } from '../../../lib/docs.ts';
import { absolute, textResponse } from '../../../lib/site-documents.ts';

/** Skills an agent can load, each a Markdown document with the sha256 of its exact bytes. */
export const GET: APIRoute = async () => {
  // The same guide the docs MCP server's integration prompt embeds.
  const guide = (await docPages()).find((page) => page.path === AGENT_GUIDE_PATH);
  if (guide === undefined) throw new Error('content/docs/agents.md is missing');
  const index = {
    skills: [
      {
        name: 'portfolio-api',
        description: guide.description,
        url: absolute(`${guide.path}.md`),
        type: 'text/markdown',
        // The bytes /agents.md serves (its twin), not the bare guide the MCP prompt embeds.
        sha256: createHash('sha256')
          .update(await docTwinAt(guide.path))
          .digest('hex'),
      },
    ],
  };
  return textResponse(`${JSON.stringify(index, null, 2)}\n`, 'application/json; charset=utf-8');
};
