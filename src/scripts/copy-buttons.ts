/**
 * The copy buttons of /connect (src/components/CopySnippet.astro): shown only where the
 * Clipboard API can write (a secure context), each copies the text of its own snippet and says so
 * in the page's polite live region, so a screen reader hears one short sentence. A button is a
 * real <button>, so Enter and Space press it.
 */

/** How long the button reads "Copied" before it reads "Copy" again. */
const CONFIRMATION_MS = 2000;

const liveRegion = document.querySelector<HTMLElement>('#copy-status');
if (liveRegion && typeof navigator.clipboard?.writeText === 'function') {
  for (const button of document.querySelectorAll<HTMLButtonElement>('.snippet .copy-button')) {
    const snippet = button.closest('.snippet');
    const code = snippet?.querySelector('code');
    const label = snippet?.querySelector('figcaption')?.textContent ?? 'text';
    if (!code) continue;
    button.hidden = false;
    button.addEventListener('click', () => void copy(button, code.textContent ?? '', label, liveRegion));
  }
}

async function copy(button: HTMLButtonElement, text: string, label: string, status: HTMLElement): Promise<void> {
  const visible = button.firstChild!;
  try {
    await navigator.clipboard.writeText(text);
    visible.textContent = 'Copied';
    // Emptied first, so the same sentence twice in a row is announced again.
    status.textContent = '';
    status.textContent = `Copied: ${label}`;
    setTimeout(() => (visible.textContent = 'Copy'), CONFIRMATION_MS);
  } catch {
    status.textContent = `Could not copy ${label}: select the text and copy it.`;
  }
}
