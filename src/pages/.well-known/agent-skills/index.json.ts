import { createHash } from 'node:crypto';
import type { APIRoute } from 'astro';
import { docAsMarkdown, loadDocs } from '../../../lib/docs.ts';
import { absolute, textResponse } from '../../../lib/site-documents.ts';

/** Skills an agent can load, each a Markdown document with the sha256 of its exact bytes. */
export const GET: APIRoute = async () => {
  const guide = (await loadDocs()).find((doc) => doc.path === 'agents');
  if (guide === undefined) throw new Error('content/docs/agents.md is missing');
  const markdown = docAsMarkdown(guide);
  const index = {
    skills: [
      {
        name: 'portfolio-api',
        description: guide.description,
        url: absolute(`/${guide.path}.md`),
        type: 'text/markdown',
        sha256: createHash('sha256').update(markdown).digest('hex'),
      },
    ],
  };
  return textResponse(`${JSON.stringify(index, null, 2)}\n`, 'application/json; charset=utf-8');
};
