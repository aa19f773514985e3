/**
 * The pointer to llms.txt that every page and every Markdown twin carries near its top, as the
 * Agent-Friendly Docs Spec asks (checks llms-txt-directive-html and llms-txt-directive-md): an
 * agent that lands on any page learns where the index is and that Markdown is on offer. One
 * sentence, written here only: Base.astro puts it in a visually hidden paragraph, the twins in a
 * blockquote.
 */
export function llmsTxtPointer(siteUrl: string): string {
  return (
    `For AI agents: the index of this site is at ${siteUrl}/llms.txt, and every page is also ` +
    'available as Markdown (its .md URL, or Accept: text/markdown).'
  );
}

/**
 * A Markdown twin with the pointer as a blockquote right after its H1 (or first, without one):
 * the title stays the first line, and the pointer is within the first lines an agent reads.
 */
export function withLlmsTxtPointer(markdown: string, siteUrl: string): string {
  const pointer = `> ${llmsTxtPointer(siteUrl)}\n\n`;
  const title = /^# .*\n+/.exec(markdown);
  return title === null ? pointer + markdown : `${title[0].trimEnd()}\n\n${pointer}${markdown.slice(title[0].length)}`;
}
