import type { APIRoute } from 'astro';
import { loadSite } from '../../../functions/config/site.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * How long a build's security.txt stays valid. RFC 9116 section 2.5.5 recommends less than a
 * year; a deploy at least twice a year keeps it current.
 */
const VALID_FOR_DAYS = 180;

/**
 * /.well-known/security.txt (RFC 9116): whom to tell about a vulnerability. Contact is the
 * owner's address from content/site.json, or the contact page when there is none; Expires is
 * counted from the build.
 */
export const GET: APIRoute = () => {
  const { email } = loadSite();
  const expires = new Date(Date.now() + VALID_FOR_DAYS * 86_400_000);
  const lines = [
    `Contact: ${email === undefined ? absolute('/contact') : `mailto:${email}`}`,
    // RFC 9116 section 2.5.5: an RFC 3339 date-time; whole seconds are enough.
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    `Canonical: ${absolute('/.well-known/security.txt')}`,
    'Preferred-Languages: en',
    '',
  ];
  return textResponse(lines.join('\n'), 'text/plain; charset=utf-8');
};
