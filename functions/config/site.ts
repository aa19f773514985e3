import siteJson from '../../content/site.json' with { type: 'json' };
import { z } from 'zod';
import { ContentError, contentProblems } from './content-error.ts';
import { PLAIN_WORDS } from './field-problems.ts';
import { SITE_URL_RULE, siteBaseUrl } from './site-url.ts';

/** Where the owner's identity lives, relative to the repository; named in every error about it. */
export const SITE_FILE = 'content/site.json';

/** The owner's identity, kept in content/site.json so that pages, API and documents agree. */
const siteSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    tagline: z.string().trim().min(1).max(160),
    description: z.string().trim().min(1).max(1000),
    location: z.string().trim().min(1).max(80).optional(),
    siteUrl: z.string().refine((value) => siteBaseUrl(value) !== null, `must be ${SITE_URL_RULE}`),
    email: z.string().email('must be an email address such as hello@ada.example').optional(),
    links: z.array(
      z
        .object({
          label: z.string().trim().min(1).max(40),
          url: z.string().url('must be an absolute URL such as https://github.com/ada'),
        })
        .strict(),
    ),
  })
  .strict();

export type Site = z.infer<typeof siteSchema>;

/** The owner's identity from the parsed JSON of site.json; throws a ContentError naming every bad field. */
export function parseSite(value: unknown): Site {
  const result = siteSchema.safeParse(value, PLAIN_WORDS);
  if (!result.success) throw new ContentError(SITE_FILE, contentProblems(result.error, 'must be a JSON object'));
  return result.data;
}

let site: Site | undefined;

/**
 * The owner's identity, checked against its schema on the first call: a bad site.json fails
 * whoever first needs it (the build, or the server as it builds the API) with the file, each
 * field and its rule, not whichever module happened to import this one.
 */
export function loadSite(): Site {
  site ??= parseSite(siteJson);
  return site;
}
