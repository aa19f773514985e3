/** Escapes text for HTML content and quoted attribute values (the five characters that matter). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
