// What every MCP Apps view shares: the bridge to the host (./host-bridge.ts), the tool result as
// the view's data, links opened by the host, and the project card the pages show.
import type { Project } from '../../../functions/projects/schema.ts';
import { domainLabel } from '../../../functions/projects/project-markdown.ts';
import { connectToHost, type HostBridge, type ToolResult, type ViewHandlers } from './host-bridge.ts';

/** The element of the view's document with this id; a view's markup is fixed at build. */
export function byId<Kind extends HTMLElement = HTMLElement>(id: string): Kind {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The view has no #${id}`);
  return element as Kind;
}

/** Shows the message of an error result (the API's Error body) in the view's status line. */
function showError(result: ToolResult): void {
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '';
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    // Not the API's JSON: shown as it came.
  }
  byId('view-status').textContent = message;
}

/**
 * Connects the view to its host and renders each tool result it is sent. A sandboxed view may
 * not navigate, so a link is handed to the host (ui/open-link), which opens it or asks first.
 */
export function startView<Data>(
  name: string,
  render: (data: Data) => void,
  handlers: Omit<ViewHandlers, 'toolResult'> = {},
): HostBridge {
  const status = byId('view-status');
  const host = connectToHost(
    { name: `portfolio-${name}`, version: '1.0.0' },
    {
      toolCancelled: (reason) => (status.textContent = `The tool call was cancelled${reason ? `: ${reason}` : '.'}`),
      ...handlers,
      toolResult: (result) => {
        if (result.isError === true || result.structuredContent === undefined) showError(result);
        else {
          status.textContent = '';
          render(result.structuredContent as Data);
        }
      },
    },
  );
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.getAttribute('href')?.startsWith('#')) return;
    event.preventDefault();
    host.openLink(link.href).catch((error: unknown) => {
      status.textContent = error instanceof Error ? error.message : 'The host did not open the link.';
    });
  });
  return host;
}

/** A copy of the view's `<template id=...>` content (markup Astro built from the pages' components). */
function fromTemplate(id: string): DocumentFragment {
  return byId<HTMLTemplateElement>(id).content.cloneNode(true) as DocumentFragment;
}

/** Sets the text of every `[data-field=name]` in `root`. */
function setField(root: ParentNode, name: string, text: string): void {
  for (const element of root.querySelectorAll(`[data-field="${name}"]`)) element.textContent = text;
}

/**
 * A project card as the home page shows it (src/components/ProjectList.astro, built into the
 * view's `project-card` template), filled with one project, as a `.project-list` item; its title links to the project page.
 */
export function projectCard(project: Project): HTMLLIElement {
  const card = fromTemplate('project-card').querySelector('li');
  if (card === null) throw new Error('The project-card template holds no card');
  setField(card, 'title', project.title);
  setField(card, 'description', project.description);
  setField(card, 'domain', domainLabel(project.domain));
  setField(card, 'year', String(project.year));
  setField(card, 'stack', project.stack.join(', '));
  for (const link of card.querySelectorAll<HTMLAnchorElement>('[data-field="title"]')) link.href = project.url;
  card.dataset.slug = project.slug;
  return card;
}

/** A list of chips (the pages' `.chips`), one per item. */
export function chips(items: readonly string[], label: string): HTMLUListElement {
  const list = document.createElement('ul');
  list.className = 'chips';
  list.setAttribute('aria-label', label);
  for (const item of items) {
    const chip = document.createElement('li');
    chip.textContent = item;
    list.append(chip);
  }
  return list;
}
