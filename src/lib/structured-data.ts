import { publicUrl, type PublicOrigins } from '../../functions/config/public-urls.ts';
import type { Site } from '../../functions/config/site.ts';
import type { Project } from '../../functions/projects/schema.ts';

/**
 * schema.org nodes for the JSON-LD block of each page, built from the data the page itself shows
 * (site.json, the catalog's project records, the breadcrumb trail), never typed twice.
 */

/** One step of a breadcrumb trail; the page itself is the last step and needs no link. */
export interface Crumb {
  name: string;
  /** Site path such as `/domains/web`; absent for the current page. */
  path?: string;
}

interface PersonNode {
  '@type': 'Person';
  '@id': string;
  name: string;
  url: string;
  description?: string;
  homeLocation?: { '@type': 'Place'; name: string };
  sameAs?: string[];
}

interface WebSiteNode {
  '@type': 'WebSite';
  '@id': string;
  name: string;
  url: string;
  description: string;
  publisher: { '@id': string };
  potentialAction: {
    '@type': 'SearchAction';
    target: { '@type': 'EntryPoint'; urlTemplate: string };
    'query-input': string;
  };
}

interface SoftwareSourceCodeNode {
  '@type': 'SoftwareSourceCode';
  '@id': string;
  name: string;
  description: string;
  url: string;
  dateCreated: string;
  dateModified?: string;
  genre: string;
  keywords: string[];
  codeRepository?: string;
  sameAs?: string;
  image: string;
  author: { '@id': string };
  isPartOf: { '@id': string };
}

interface BreadcrumbListNode {
  '@type': 'BreadcrumbList';
  itemListElement: { '@type': 'ListItem'; position: number; name: string; item?: string }[];
}

export type JsonLdNode = PersonNode | WebSiteNode | SoftwareSourceCodeNode | BreadcrumbListNode;

/** Stable node identifiers, so a project's author points at the one Person of the home page. */
function nodeIds(origin: string): { person: string; website: string } {
  return { person: `${origin}/#person`, website: `${origin}/#website` };
}

/** The owner as a Person: the name, description, place and profile links the home page shows. */
export function personNode(site: Site, origin: string): PersonNode {
  return {
    '@type': 'Person',
    '@id': nodeIds(origin).person,
    name: site.name,
    url: `${origin}/`,
    description: site.description,
    ...(site.location ? { homeLocation: { '@type': 'Place', name: site.location } } : {}),
    ...(site.links.length > 0 ? { sameAs: site.links.map((link) => link.url) } : {}),
  };
}

/**
 * The site itself, with the search form of /search as its SearchAction: its results are
 * dynamic, so they are on the service's origin (API_ORIGIN when set).
 */
export function webSiteNode(site: Site, origins: PublicOrigins): WebSiteNode {
  const origin = origins.siteUrl;
  const ids = nodeIds(origin);
  return {
    '@type': 'WebSite',
    '@id': ids.website,
    name: site.name,
    url: `${origin}/`,
    description: site.tagline,
    publisher: { '@id': ids.person },
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: publicUrl(origins, '/search?q={search_term_string}') },
      'query-input': 'required name=search_term_string',
    },
  };
}

/**
 * A project page's subject. The stack is a mix of languages, frameworks and services, so it goes
 * into `keywords`, not `programmingLanguage`, which would claim more than the data says.
 */
export function projectNode(
  project: Project,
  details: { origin: string; domainLabel: string; imageUrl: string },
): SoftwareSourceCodeNode {
  const ids = nodeIds(details.origin);
  return {
    '@type': 'SoftwareSourceCode',
    '@id': `${project.url}#project`,
    name: project.title,
    description: project.description,
    url: project.url,
    // ISO 8601 allows a year on its own; the page states no finer date of creation.
    dateCreated: String(project.year),
    ...(project.updated ? { dateModified: project.updated } : {}),
    genre: details.domainLabel,
    keywords: project.stack,
    ...(project.repository ? { codeRepository: project.repository } : {}),
    ...(project.website ? { sameAs: project.website } : {}),
    image: details.imageUrl,
    author: { '@id': ids.person },
    isPartOf: { '@id': ids.website },
  };
}

/** The trail a page shows above its heading, ending with the page itself. */
export function breadcrumbNode(trail: readonly Crumb[], origin: string): BreadcrumbListNode {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      ...(crumb.path === undefined ? {} : { item: new URL(crumb.path, `${origin}/`).href }),
    })),
  };
}

/**
 * The text of a `<script type="application/ld+json">` element. `<`, `>` and `&` become JSON
 * escapes (still the same JSON value), so no text from the content can close the element or open
 * a comment inside it (HTML section 4.12.1.3, restrictions for contents of script elements).
 * U+2028 and U+2029 are escaped too, for readers that treat the block as JavaScript.
 */
export function serializeJsonLd(nodes: readonly JsonLdNode[]): string {
  const document = { '@context': 'https://schema.org', '@graph': nodes };
  return JSON.stringify(document).replace(/[<>&\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
