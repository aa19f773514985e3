import type { APIRoute, GetStaticPaths } from 'astro';
import { loadSite } from '../../../../functions/config/site.ts';
import { projectAt, projectSlugPaths } from '../../../lib/catalog.ts';
import { projectCard } from '../../../lib/og-cards.ts';
import { renderCoverOgImage, renderOgImage } from '../../../lib/og-image.ts';
import { figureFile, projectImages } from '../../../lib/project-images.ts';

/** Each project's Open Graph image at /og/projects/<slug>.png, rendered once at build: its cover, or its card. */
export const getStaticPaths = projectSlugPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const record = await projectAt(params.slug);
  const { cover } = await projectImages(record.project.slug);
  const png = cover
    ? await renderCoverOgImage(figureFile(cover))
    : await renderOgImage(projectCard(record.project, loadSite()));
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
