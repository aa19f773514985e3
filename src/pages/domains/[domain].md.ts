import type { APIRoute, GetStaticPaths } from 'astro';
import { buildCatalog } from '../../lib/catalog.ts';
import { domainListing, listingAsMarkdown } from '../../lib/listing-pages.ts';
import { markdownResponse } from '../../lib/site-documents.ts';

/** Each domain page as Markdown at /domains/<domain>.md. */
export const getStaticPaths = (async () => {
  const catalog = await buildCatalog();
  return catalog.facets('domain').map(({ value }) => ({ params: { domain: value }, props: { domain: value } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ domain: string }> = async ({ props }) =>
  markdownResponse(listingAsMarkdown(await domainListing(props.domain)));
