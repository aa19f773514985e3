import type { APIRoute } from 'astro';
import { escapeHtml } from '../../functions/http/html.ts';
import { absolute, sitePages, textResponse } from '../lib/site-documents.ts';

/** /sitemap.xml (sitemaps.org 0.9): every page with absolute URLs, lastmod from the content. */
export const GET: APIRoute = async () => {
  const urls = (await sitePages()).map(
    ({ path, lastmod }) =>
      `  <url><loc>${escapeHtml(absolute(path))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return textResponse(xml, 'application/xml; charset=utf-8');
};
