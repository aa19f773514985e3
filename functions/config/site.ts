import siteJson from '../../content/site.json' with { type: 'json' };
import { z } from 'zod';

/** The owner's identity, kept in content/site.json so that pages, API and documents agree. */
const siteSchema = z
  .object({
    name: z.string().min(1),
    tagline: z.string().min(1).max(160),
    description: z.string().min(1),
    location: z.string().optional(),
    siteUrl: z.string().url(),
    email: z.string().email().optional(),
    links: z.array(z.object({ label: z.string().min(1), url: z.string().url() })),
  })
  .strict();

export type Site = z.infer<typeof siteSchema>;

let site: Site | undefined;

/**
 * The owner's identity, checked against its schema on the first call: a bad site.json fails
 * whoever first needs it (the build, or the server as it builds the API) with zod's message,
 * not whichever module happened to import this one.
 */
export function loadSite(): Site {
  site ??= siteSchema.parse(siteJson);
  return site;
}
