import type { APIRoute, GetStaticPaths } from 'astro';
import { buildCatalog, stackSlug } from '../../lib/catalog.ts';
import { listingAsMarkdown, stackListing } from '../../lib/listing-pages.ts';
import { markdownResponse } from '../../lib/site-documents.ts';

/** Each technology page as Markdown at /stack/<stack>.md. */
export const getStaticPaths = (async () => {
  const catalog = await buildCatalog();
  return catalog.facets('stack').map(({ value }) => ({ params: { stack: stackSlug(value) }, props: { name: value } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ name: string }> = async ({ props }) =>
  markdownResponse(listingAsMarkdown(await stackListing(props.name)));
