import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';
import { absolute } from './site-documents.ts';

/**
 * A page of a title, a few sentences and one link onward (the 404 page, the thank-you page):
 * its .astro page and its Markdown twin both render this one description.
 */
export interface SimplePage {
  title: string;
  description: string;
  heading: string;
  paragraphs: readonly string[];
  next: { href: string; label: string };
}

export const NOT_FOUND_PAGE: SimplePage = {
  title: 'Page not found',
  description: 'There is no page at this address.',
  heading: 'Page not found',
  paragraphs: ['There is no page at this address. It may have moved, or the link may have a typo.'],
  next: { href: '/', label: 'See all projects' },
};

export const THANKS_PAGE: SimplePage = {
  title: 'Message sent',
  description: 'Your message was received.',
  heading: 'Thank you',
  paragraphs: ['Your message arrived safely. I usually reply within a few days.'],
  next: { href: '/', label: 'Back to the projects' },
};

/** The page as Markdown; its link leads to the next page's twin. */
export function simplePageAsMarkdown(page: SimplePage): string {
  const next = `[${page.next.label}](${absolute(markdownTwinPath(page.next.href))})`;
  return [`# ${page.heading}`, '', ...page.paragraphs.flatMap((text) => [text, '']), next, ''].join('\n');
}
