import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { SITE_FILE, type Site } from '../../functions/config/site.ts';
import { PROJECTS_DIR } from '../../functions/content/check-content.ts';
import { contentHash, exampleFilesIn, type ExampleHashes } from './example-content.ts';

/** The starter project init adds when no project of the owner's is left. */
const STARTER_FILE = `${PROJECTS_DIR}/my-first-project.md`;
export const STARTER_TEMPLATE = path.join(import.meta.dirname, 'starter-project.md');

export type Change =
  { action: 'write'; file: string; text: string; why: string } | { action: 'delete'; file: string; why: string };

export interface InitPlan {
  changes: Change[];
  /** Files the owner has edited that the plan would replace or delete; nothing happens while any remain without --force. */
  edited: string[];
}

/** site.json exactly as init writes it, so that a second run with the same values finds nothing to do. */
function siteJsonText(site: Site): string {
  return `${JSON.stringify(site, null, 2)}\n`;
}

/**
 * What init would change under `root` to make it `site`'s portfolio: site.json written, each
 * example project and image deleted, the starter project added when no project of the owner's
 * remains. A file is the example's when its hash is in `hashes`; anything else is the owner's,
 * listed in `edited` when the plan would overwrite or delete it.
 */
export function planInit(root: string, site: Site, hashes: ExampleHashes): InitPlan {
  const changes: Change[] = [];
  const edited: string[] = [];
  const isExample = (file: string) => hashes[file]?.includes(contentHash(path.join(root, file))) ?? false;

  const siteText = siteJsonText(site);
  const sitePath = path.join(root, SITE_FILE);
  const currentSite = existsSync(sitePath) ? readFileSync(sitePath, 'utf8') : null;
  if (currentSite !== siteText) {
    if (currentSite !== null && !isExample(SITE_FILE)) edited.push(SITE_FILE);
    changes.push({ action: 'write', file: SITE_FILE, text: siteText, why: `the owner is now ${site.name}` });
  }

  const projectFiles = exampleFilesIn(root).filter((file) => file !== SITE_FILE);
  const examples = projectFiles.filter((file) => file in hashes);
  for (const file of examples) {
    if (!isExample(file)) edited.push(file);
    changes.push({
      action: 'delete',
      file,
      why: file.endsWith('.md') ? 'an example project' : "an example project's image",
    });
  }
  const ownProjects = projectFiles.filter((file) => !(file in hashes) && file.endsWith('.md'));
  if (ownProjects.length === 0) {
    changes.push({
      action: 'write',
      file: STARTER_FILE,
      text: readFileSync(STARTER_TEMPLATE, 'utf8'),
      why: 'a starter project whose comments explain the front matter',
    });
  }
  return { changes, edited };
}

/**
 * Each symbolic link on the way to a file the plan changes (the file itself, or a folder between
 * `root` and it), as `path -> target`. Init never writes or deletes through a link: it may lead
 * out of the repository, to a file that is not the portfolio's.
 */
export function linksOnTheWay(root: string, changes: readonly Change[]): string[] {
  const links = new Set<string>();
  for (const { file } of changes) {
    const parts = file.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const relative = parts.slice(0, depth).join('/');
      const full = path.join(root, relative);
      let isLink: boolean;
      try {
        isLink = lstatSync(full).isSymbolicLink();
      } catch {
        break; // Not there yet: init creates it, and nothing below it exists either.
      }
      if (isLink) {
        links.add(`${relative} -> ${readlinkSync(full)}`);
        break;
      }
    }
  }
  return [...links].sort();
}
