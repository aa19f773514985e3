import type { APIRoute } from 'astro';
import { DISALLOWED_PATHS } from '../lib/crawl-policy.ts';
import { absolute, textResponse } from '../lib/site-documents.ts';

/** AI crawlers named explicitly, so the policy for them is a decision rather than a default. */
const AI_CRAWLERS = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-User',
  'PerplexityBot',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
];

/**
 * The one policy every group carries. A crawler obeys only the group that names it most
 * specifically (RFC 9309 section 2.2.1), so the named AI crawlers would otherwise lose the `*`
 * group's rules and its Content-Signal (the use terms, contentsignals.org).
 */
const POLICY = [
  'Content-Signal: search=yes, ai-input=yes, ai-train=no',
  'Allow: /',
  ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
];

/**
 * /robots.txt: everything public may be read and cited, by people, search engines and AI
 * agents alike; the API write endpoints are not pages.
 */
export const GET: APIRoute = () => {
  const lines = [
    '# The portfolio is public: read it, search it, cite it.',
    'User-agent: *',
    ...POLICY,
    '',
    '# AI crawlers and agents: the same policy, stated for them, since a named group replaces the * group.',
    ...AI_CRAWLERS.map((agent) => `User-agent: ${agent}`),
    ...POLICY,
    '',
    `Sitemap: ${absolute('/sitemap.xml')}`,
    '',
  ];
  return textResponse(lines.join('\n'), 'text/plain; charset=utf-8');
};
