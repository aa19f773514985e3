/**
 * Whether Accept prefers Markdown to HTML (RFC 9110 section 12.5.1): text/markdown with a
 * higher quality than text/html, or named while HTML is not.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (accept === undefined || !accept.includes('markdown')) return false;
  let markdown = 0;
  let html = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? 1,
    );
    if (type === 'text/markdown') markdown = Math.max(markdown, q);
    else if (type === 'text/html') html = Math.max(html, q);
  }
  return markdown > 0 && markdown > html;
}
