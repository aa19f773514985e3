// The project card view: get_project's result as the home page's card, with its stack and links.
import type { Project } from '../../../functions/projects/schema.ts';
import { byId, chips, projectCard, startView } from './view.ts';

startView<Project>('project-card', (project) => {
  byId('projects').replaceChildren(projectCard(project));
  byId('stack').replaceChildren(chips(project.stack, 'Technologies'));
  const links = [
    { label: 'Project page', url: project.url },
    { label: 'Source code', url: project.repository },
    { label: 'Website', url: project.website },
  ];
  byId('links').replaceChildren(
    ...links.flatMap(({ label, url }) => {
      if (url === null) return [];
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = url;
      link.textContent = label;
      item.append(link);
      return [item];
    }),
  );
});
