import { describe, expect, it } from 'vitest';
import type { Site } from '../../functions/config/site.ts';
import type { Project } from '../../functions/projects/schema.ts';
import { docTrail, projectTrail } from '../../src/lib/breadcrumbs.ts';
import {
  breadcrumbNode,
  personNode,
  projectNode,
  serializeJsonLd,
  webSiteNode,
  type JsonLdNode,
} from '../../src/lib/structured-data.ts';

const ORIGIN = 'https://ada.example';
const site: Site = {
  name: 'Ada Lindqvist',
  tagline: 'I build fast web products.',
  description: 'A senior engineer in Stockholm.',
  location: 'Stockholm, Sweden',
  siteUrl: ORIGIN,
  links: [
    { label: 'GitHub', url: 'https://github.com/ada' },
    { label: 'Mastodon', url: 'https://hachyderm.io/@ada' },
  ],
};
const project: Project = {
  slug: 'ferry-times',
  title: 'Ferry Times',
  description: 'When is the next boat?',
  stack: ['TypeScript', 'Redis'],
  domain: 'developer-tools',
  year: 2017,
  repository: 'https://github.com/ada/ferry-times',
  website: null,
  url: `${ORIGIN}/projects/ferry-times`,
  updated: '2024-05-01',
};
const details = { origin: ORIGIN, domainLabel: 'Developer tools', imageUrl: `${ORIGIN}/og/projects/ferry-times.png` };

/** The document a crawler reads back from the script element's text. */
function parsed(nodes: JsonLdNode[]): { '@context': string; '@graph': Record<string, unknown>[] } {
  return JSON.parse(serializeJsonLd(nodes)) as { '@context': string; '@graph': Record<string, unknown>[] };
}

describe('home page nodes', () => {
  it('describe the owner as a Person with the profile links of site.json as sameAs', () => {
    const person = personNode(site, ORIGIN);
    expect(person).toMatchObject({
      '@type': 'Person',
      '@id': `${ORIGIN}/#person`,
      name: 'Ada Lindqvist',
      url: `${ORIGIN}/`,
      description: site.description,
      homeLocation: { '@type': 'Place', name: 'Stockholm, Sweden' },
      sameAs: ['https://github.com/ada', 'https://hachyderm.io/@ada'],
    });
  });

  it('leave out sameAs and the place when the site has none', () => {
    const person = personNode({ ...site, links: [], location: undefined }, ORIGIN);
    expect(person).not.toHaveProperty('sameAs');
    expect(person).not.toHaveProperty('homeLocation');
  });

  it('describe the WebSite with a SearchAction whose template the search page answers', () => {
    const website = webSiteNode(site, { siteUrl: ORIGIN, apiOrigin: null });
    expect(website).toMatchObject({ '@type': 'WebSite', url: `${ORIGIN}/`, publisher: { '@id': `${ORIGIN}/#person` } });
    const action = website.potentialAction;
    expect(action['@type']).toBe('SearchAction');
    expect(action.target.urlTemplate).toBe(`${ORIGIN}/search?q={search_term_string}`);
    // The placeholder named in query-input is the one in the template.
    expect(action['query-input']).toBe('required name=search_term_string');
  });
});

describe('project node', () => {
  it('is SoftwareSourceCode with the facts the page shows and the Person as author by @id', () => {
    const node = projectNode(project, details);
    expect(node).toMatchObject({
      '@type': 'SoftwareSourceCode',
      name: 'Ferry Times',
      description: 'When is the next boat?',
      url: project.url,
      dateCreated: '2017',
      dateModified: '2024-05-01',
      genre: 'Developer tools',
      keywords: ['TypeScript', 'Redis'],
      codeRepository: 'https://github.com/ada/ferry-times',
      image: details.imageUrl,
      author: { '@id': personNode(site, ORIGIN)['@id'] },
    });
  });

  it('has no codeRepository when the project links no repository', () => {
    const node = projectNode({ ...project, repository: null, updated: null }, details);
    expect(node).not.toHaveProperty('codeRepository');
    expect(node).not.toHaveProperty('dateModified');
  });
});

describe('breadcrumbs', () => {
  it('number the trail from 1, link every step but the page itself, with absolute URLs', () => {
    const node = breadcrumbNode(projectTrail(project), ORIGIN);
    expect(node.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Projects', item: `${ORIGIN}/` },
      { '@type': 'ListItem', position: 2, name: 'Developer tools', item: `${ORIGIN}/domains/developer-tools` },
      { '@type': 'ListItem', position: 3, name: 'Ferry Times' },
    ]);
  });

  it('place a nested doc under the doc of its folder, and a top-level doc under nothing', () => {
    const docs = [
      { slug: 'developers', title: 'Developers' },
      { slug: 'developers/cli', title: 'CLI' },
    ];
    expect(docTrail(docs[1]!, docs)).toEqual([{ name: 'Developers', path: '/developers' }, { name: 'CLI' }]);
    expect(docTrail(docs[0]!, docs)).toEqual([]);
  });
});

describe('serializeJsonLd', () => {
  it('writes one schema.org document with the nodes as its graph', () => {
    const document = parsed([personNode(site, ORIGIN), webSiteNode(site, { siteUrl: ORIGIN, apiOrigin: null })]);
    expect(document['@context']).toBe('https://schema.org');
    expect(document['@graph'].map((node) => node['@type'])).toEqual(['Person', 'WebSite']);
  });

  it('cannot be closed early by content: </script>, <!-- and & come out as JSON escapes of the same text', () => {
    const hostile = { ...project, title: '</script><script>alert(1)</script>', description: 'a <!-- b --> & c' };
    const text = serializeJsonLd([projectNode(hostile, details)]);
    expect(text).not.toMatch(/[<>&]/);
    expect(text).toContain('\\u003c/script\\u003e');
    const node = parsed([projectNode(hostile, details)])['@graph'][0]!;
    expect(node.name).toBe(hostile.title);
    expect(node.description).toBe(hostile.description);
  });

  it('escapes the line and paragraph separators that end a JavaScript string', () => {
    const text = serializeJsonLd([projectNode({ ...project, title: 'a\u2028b\u2029c' }, details)]);
    expect(text).toContain('a\\u2028b\\u2029c');
    expect(parsed([projectNode({ ...project, title: 'a\u2028b\u2029c' }, details)])['@graph'][0]!.name).toBe(
      'a\u2028b\u2029c',
    );
  });
});
