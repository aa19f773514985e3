/**
 * robots.txt read the way a crawler reads it (RFC 9309): groups of user-agent lines and the
 * lines that follow them, the group for a product token, and the longest-match decision.
 */

/** One group: the user-agents it names and its lines (allow, disallow and any other record). */
export interface RobotsGroup {
  agents: string[];
  rules: { allow: boolean; pattern: string }[];
  /** Other records of the group by lower-case name, such as `content-signal`. */
  records: Map<string, string[]>;
}

/**
 * Section 2.1 and 2.2: a group starts at a user-agent line that follows a rule (or starts the
 * file) and gathers the consecutive user-agent lines, then every line until the next group.
 * Comments (#) and blank lines end nothing; lines outside any group (Sitemap) are skipped.
 */
export function parseRobots(text: string): RobotsGroup[] {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'user-agent') {
      if (!lastWasAgent || current === undefined) {
        current = { agents: [], rules: [], records: new Map() };
        groups.push(current);
      }
      current.agents.push(value);
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current === undefined || name === 'sitemap') continue;
    if (name === 'allow' || name === 'disallow') current.rules.push({ allow: name === 'allow', pattern: value });
    else current.records.set(name, [...(current.records.get(name) ?? []), value]);
  }
  return groups;
}

/**
 * Section 2.2.1: the groups naming the product token (case-insensitively) combined into one;
 * if none names it, the `*` groups; if there are none, no rules at all.
 */
export function groupFor(groups: readonly RobotsGroup[], productToken: string): RobotsGroup {
  const named = groups.filter((group) =>
    group.agents.some((agent) => agent !== '*' && agent.toLowerCase() === productToken.toLowerCase()),
  );
  const chosen = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  const records = new Map<string, string[]>();
  for (const group of chosen)
    for (const [name, values] of group.records) records.set(name, [...(records.get(name) ?? []), ...values]);
  return { agents: chosen.flatMap((group) => group.agents), rules: chosen.flatMap((group) => group.rules), records };
}

/**
 * Section 2.2.2: the matching rule with the longest pattern (in octets) decides; on a tie
 * between allow and disallow, allow wins; no matching rule allows. Section 2.2.3: `*` matches
 * any sequence, a final `$` anchors the end; an empty disallow matches nothing.
 */
export function isAllowed(group: RobotsGroup, path: string): boolean {
  let best: { allow: boolean; length: number } | undefined;
  for (const rule of group.rules) {
    if (rule.pattern === '' || !patternMatches(rule.pattern, path)) continue;
    const length = Buffer.byteLength(rule.pattern);
    if (best === undefined || length > best.length || (length === best.length && rule.allow)) {
      best = { allow: rule.allow, length };
    }
  }
  return best?.allow ?? true;
}

function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}
