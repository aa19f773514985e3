import type { APIRoute } from 'astro';
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
 * /robots.txt: everything public may be read and cited, by people, search engines and AI
 * agents alike; the API write endpoints are not pages. Content-Signal states the use terms.
 */
export const GET: APIRoute = () => {
  const lines = [
    '# The portfolio is public: read it, search it, cite it.',
    'User-agent: *',
    'Content-Signal: search=yes, ai-input=yes, ai-train=no',
    'Allow: /',
    'Disallow: /api/v1/contact',
    'Disallow: /contact/thanks',
    '',
    '# AI crawlers and agents: the same policy, stated explicitly.',
    ...AI_CRAWLERS.map((agent) => `User-agent: ${agent}`),
    'Allow: /',
    'Disallow: /api/v1/contact',
    '',
    `Sitemap: ${absolute('/sitemap.xml')}`,
    '',
  ];
  return textResponse(lines.join('\n'), 'text/plain; charset=utf-8');
};
