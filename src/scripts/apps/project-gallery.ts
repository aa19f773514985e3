// The gallery view: list_projects' page of projects as the home page's cards, filtered in place
// by domain and by technology (chips, like the pages' facets), without another tool call.
import type { Project } from '../../../functions/projects/schema.ts';
import { domainLabel } from '../../../functions/projects/project-markdown.ts';
import { byId, projectCard, startView } from './view.ts';

interface ProjectList {
  data: Project[];
  pagination: { hasMore: boolean };
}

/** The chosen filter of each kind; null shows every project. */
const chosen: { domain: string | null; stack: string | null } = { domain: null, stack: null };

function matches(project: Project): boolean {
  return (
    (chosen.domain === null || project.domain === chosen.domain) &&
    (chosen.stack === null || project.stack.includes(chosen.stack))
  );
}

/** One filter's chips: a toggle button per value, pressed when chosen. */
function filterChips(kind: 'domain' | 'stack', values: readonly string[], refresh: () => void): HTMLElement[] {
  return values.map((value) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = kind === 'domain' ? domainLabel(value) : value;
    button.setAttribute('aria-pressed', String(chosen[kind] === value));
    button.addEventListener('click', () => {
      chosen[kind] = chosen[kind] === value ? null : value;
      refresh();
    });
    item.append(button);
    return item;
  });
}

startView<ProjectList>('project-gallery', ({ data, pagination }) => {
  chosen.domain = null;
  chosen.stack = null;
  const domains = [...new Set(data.map((project) => project.domain))].sort();
  const stacks = [...new Set(data.flatMap((project) => project.stack))].sort((a, b) => a.localeCompare(b));
  const refresh = () => {
    const shown = data.filter(matches);
    byId('projects').replaceChildren(...shown.map(projectCard));
    byId('domains').replaceChildren(...filterChips('domain', domains, refresh));
    byId('stacks').replaceChildren(...filterChips('stack', stacks, refresh));
    byId('shown').textContent =
      `${shown.length} of ${data.length} project${data.length === 1 ? '' : 's'}` +
      (pagination.hasMore ? ' (more on the next page)' : '');
  };
  refresh();
});
