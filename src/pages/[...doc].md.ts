import type { APIRoute, GetStaticPaths } from 'astro';
import { MARKDOWN } from '../../functions/site/markdown-twin.ts';
import { docTwin, loadDocs, type Doc } from '../lib/docs.ts';
import { textResponse } from '../lib/site-documents.ts';

/** Every doc as Markdown at /<path>.md, the convention agents look for. */
export const getStaticPaths = (async () => {
  const docs = await loadDocs();
  return docs.map((doc) => ({ params: { doc: doc.slug }, props: { doc } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ doc: Doc }> = ({ props }) => textResponse(docTwin(props.doc), MARKDOWN);
