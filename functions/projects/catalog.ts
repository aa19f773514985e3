import type { Project, ProjectFrontMatter, ProjectRecord } from './schema.ts';

/** One project as the build exports it: front matter, slug and Markdown body. */
export interface ProjectSource extends Omit<ProjectFrontMatter, 'updated'> {
  slug: string;
  updated?: string | Date | null;
  markdown: string;
}

/** Filters of listProjects; both match case-insensitively. */
export interface ProjectFilter {
  domain?: string;
  stack?: string;
}

/**
 * The projects in their one stable order (newest year first, then slug), with lookups.
 * Built once at start; every read of the API, pages and MCP goes through it.
 */
export class Catalog {
  readonly records: readonly ProjectRecord[];
  private readonly bySlug: Map<string, ProjectRecord>;

  constructor(sources: readonly ProjectSource[], siteUrl: string) {
    this.records = sources
      .map((source) => toRecord(source, siteUrl))
      .sort((a, b) => b.project.year - a.project.year || compare(a.project.slug, b.project.slug));
    this.bySlug = new Map(this.records.map((record) => [record.project.slug, record]));
  }

  get(slug: string): ProjectRecord | undefined {
    return this.bySlug.get(slug);
  }

  /** Projects matching the filter, in catalog order. */
  filter(filter: ProjectFilter): Project[] {
    const domain = filter.domain?.toLowerCase();
    const stack = filter.stack?.toLowerCase();
    const matches: Project[] = [];
    for (const { project } of this.records) {
      if (domain !== undefined && project.domain.toLowerCase() !== domain) continue;
      if (stack !== undefined && !project.stack.some((item) => item.toLowerCase() === stack)) continue;
      matches.push(project);
    }
    return matches;
  }

  /** Distinct values of a field with how many projects carry each, most common first. */
  facets(field: 'domain' | 'stack'): { value: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const { project } of this.records) {
      const values = field === 'domain' ? [project.domain] : project.stack;
      for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || compare(a.value.toLowerCase(), b.value.toLowerCase()));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toRecord(source: ProjectSource, siteUrl: string): ProjectRecord {
  // Dates arrive as Date objects from Astro and as ISO strings from the build's JSON export.
  const updated = source.updated ? new Date(source.updated).toISOString().slice(0, 10) : null;
  return {
    project: {
      slug: source.slug,
      title: source.title,
      description: source.description,
      stack: [...source.stack],
      domain: source.domain,
      year: source.year,
      repository: source.repository ?? null,
      website: source.website ?? null,
      url: `${siteUrl}/projects/${source.slug}`,
      updated,
    },
    markdown: source.markdown,
  };
}
