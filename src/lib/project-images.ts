import { getCollection, type CollectionEntry } from 'astro:content';

/** An image of a project as Astro resolved it: the file's metadata (for the image pipeline) and its alt text. */
export type ProjectFigure = NonNullable<CollectionEntry<'projects'>['data']['cover']>;

/** A project's images; the API's Project shape carries none, so pages look them up by slug. */
export interface ProjectImages {
  cover?: ProjectFigure;
  screenshots: ProjectFigure[];
}

let images: Promise<Map<string, ProjectImages>> | undefined;

/** Every project's images by slug, read once per build from the projects collection. */
function allProjectImages(): Promise<Map<string, ProjectImages>> {
  images ??= getCollection('projects').then(
    (entries) =>
      new Map(entries.map(({ id, data }) => [id, { cover: data.cover, screenshots: data.screenshots ?? [] }])),
  );
  return images;
}

export async function projectImages(slug: string): Promise<ProjectImages> {
  return (await allProjectImages()).get(slug) ?? { screenshots: [] };
}

/**
 * The file a cover was read from, so sharp can crop it into the Open Graph image. Astro's image
 * module exposes it as `fsPath` at build (astro/dist/assets/utils/proxy.js); it is not in the type.
 */
export function figureFile(figure: ProjectFigure): string {
  const file = (figure.src as { fsPath?: unknown }).fsPath;
  if (typeof file !== 'string') throw new Error(`No file behind the image ${figure.src.src}`);
  return file;
}
