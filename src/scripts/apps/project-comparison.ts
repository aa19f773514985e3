// The comparison view: compare_projects' result as cards side by side, then what they share and
// what each uses alone.
import type { Project } from '../../../functions/projects/schema.ts';
import { byId, chips, projectCard, startView } from './view.ts';

interface Comparison {
  projects: Project[];
  sharedStack: string[];
  uniqueStack: Record<string, string[]>;
  years: { from: number; to: number };
}

startView<Comparison>('project-comparison', ({ projects, sharedStack, uniqueStack, years }) => {
  byId('projects').replaceChildren(...projects.map(projectCard));
  byId('years').textContent = years.from === years.to ? String(years.from) : `${years.from} to ${years.to}`;
  byId('shared').replaceChildren(
    sharedStack.length > 0 ? chips(sharedStack, 'Shared technologies') : document.createTextNode('Nothing in common.'),
  );
  byId('unique').replaceChildren(
    ...projects.flatMap((project) => {
      const term = document.createElement('dt');
      term.textContent = project.title;
      const detail = document.createElement('dd');
      const own = uniqueStack[project.slug] ?? [];
      detail.append(
        own.length > 0 ? chips(own, `Only ${project.title}`) : document.createTextNode('Nothing of its own.'),
      );
      return [term, detail];
    }),
  );
});
