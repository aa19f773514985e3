import { FORM_TOKEN_MAX_MESSAGES, type FormTokenCheck } from './form-token.ts';

/** The score from which a message is judged spam, and how many links a message may carry below it. */
export const SPAM_RULES = { threshold: 5, maxLinks: 3 } as const;

/** What only the site's own contact page sends (absent for API, MCP and WebMCP clients). */
export interface FormSignals {
  /** What the hidden field held: people never see it, so anything in it was typed by a bot. */
  honeypot: string;
  /** What the fill-time token says (form-token.ts). */
  token: FormTokenCheck;
}

export interface ScoredFields {
  name: string;
  email: string;
  message: string;
}

/** The verdict and why: each reason names a rule and its points, as the owner sees it in `npm run inbox -- --spam`. */
export interface SpamVerdict {
  spam: boolean;
  score: number;
  reasons: string[];
}

/** A link with a scheme or starting with `www.`. */
const SCHEMED_LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
/** Endings of `name.ending/...` that are file types or frameworks, not top-level domains. */
const NOT_DOMAINS = new Set(['js', 'ts', 'py', 'rs', 'go', 'md']);

/**
 * The links in `text`: with a scheme, starting with `www.`, or a host name followed by a path
 * (`example.com/offer`, written lowercase as links are). A bare `example.com` is not counted (too
 * many honest words have a dot), nor `Node.js/Deno` or `ASP.NET/C#`. Linear in the text: one
 * regular expression without nested repetition, then one look at each word.
 */
function linksIn(text: string): string[] {
  const links: string[] = [...(text.match(SCHEMED_LINK) ?? [])];
  for (const word of text.replace(SCHEMED_LINK, ' ').split(/\s+/)) {
    const slash = word.indexOf('/');
    if (slash > 0 && isHostName(word.slice(0, slash).replace(/^[^a-z0-9]+/i, ''))) links.push(word);
  }
  return links;
}

function isHostName(host: string): boolean {
  const dot = host.lastIndexOf('.');
  const ending = host.slice(dot + 1);
  return (
    dot > 0 &&
    /^[a-z]{2,24}$/.test(ending) &&
    !NOT_DOMAINS.has(ending) &&
    host
      .slice(0, dot)
      .split('.')
      .every((label) => /^[a-z0-9-]+$/i.test(label))
  );
}
const WORD = /\p{L}{2,}/u;

/** The token checks that point at a bot, each with the reason the owner reads. */
const TOKEN_REASONS: Record<Exclude<FormTokenCheck, 'ok' | 'not_issued'>, string> = {
  too_fast: 'form sent too fast',
  missing: 'form token missing',
  invalid: 'form token invalid',
  expired: 'form token expired',
  reused: `form token used for more than ${FORM_TOKEN_MAX_MESSAGES} messages`,
};

/**
 * A small, explainable spam score of a valid contact message: each rule that matches adds its
 * points, and a message reaching SPAM_RULES.threshold is spam. The form's own signals and many
 * links decide alone; the weaker hints (a link, a name that is a URL or the email, a message that
 * is only a link or has no words) only in combination.
 */
export function spamScore(fields: ScoredFields, form?: FormSignals): SpamVerdict {
  const matched: [string, number][] = [];
  if (form !== undefined) {
    if (form.honeypot.trim() !== '') matched.push(['hidden field filled', SPAM_RULES.threshold]);
    if (form.token !== 'ok' && form.token !== 'not_issued')
      matched.push([TOKEN_REASONS[form.token], SPAM_RULES.threshold]);
  }
  const links = linksIn(fields.message);
  if (links.length > SPAM_RULES.maxLinks) matched.push([`${links.length} links`, SPAM_RULES.threshold]);
  else if (links.length > 0) matched.push([`${links.length} link${links.length > 1 ? 's' : ''}`, links.length]);
  if (linksIn(fields.name).length > 0) matched.push(['link in the name', 4]);
  if (fields.name.trim().toLowerCase() === fields.email.trim().toLowerCase()) matched.push(['name is the email', 3]);
  if (links.length === 1 && fields.message.trim() === links[0]) matched.push(['message is only a link', 4]);
  else if (!WORD.test(fields.message)) matched.push(['no words in the message', 3]);
  const score = matched.reduce((sum, [, points]) => sum + points, 0);
  return {
    spam: score >= SPAM_RULES.threshold,
    score,
    reasons: matched.map(([reason, points]) => `${reason} (+${points})`),
  };
}
