import { askedVariables, deployVariables, type FunctionHostName } from './deploy-variables.ts';

/**
 * The repository the buttons deploy until the owner names theirs: package.json has no
 * `repository`, and each fork has its own address. `npm run deploy:buttons -- <fork URL>`
 * prints the buttons for a fork.
 */
export const FORK_PLACEHOLDER = 'https://github.com/YOUR-ACCOUNT/agent-ready-portfolio';

/** The page a button's form links to for the meaning of each value, in the same repository. */
const VALUES_PAGE = 'blob/main/docs/deploy-buttons.md';

/**
 * The deploy link of each function host for `repository` (a public GitHub or GitLab URL):
 * - Netlify ("Create deploys" > "Deploy to Netlify button"): `/start/deploy?repository=`; the
 *   form asks for netlify.toml's `[template.environment]`.
 * - Vercel ("Deploy Button" > "Environment Variables"): `/new/clone?repository-url=`, with `env`
 *   the required keys, `envDescription` one line about them and `envLink` where to read more.
 * - Cloudflare ("Deploy to Cloudflare buttons"): `?url=`; the form asks for every uncommented
 *   line of `.dev.vars.example`, described by package.json's `cloudflare.bindings`.
 */
export function deployLinks(repository: string): Record<FunctionHostName, string> {
  const repo = repository.replace(/\/+$/, '');
  // Vercel's examples leave the commas of `env` as they are; the names need no escaping.
  const vercel = [
    `repository-url=${encodeURIComponent(repo)}`,
    `env=${askedVariables('vercel').join(',')}`,
    `envDescription=${encodeURIComponent(vercelDescription())}`,
    `envLink=${encodeURIComponent(`${repo}/${VALUES_PAGE}`)}`,
  ];
  return {
    netlify: `https://app.netlify.com/start/deploy?repository=${repo}`,
    vercel: `https://vercel.com/new/clone?${vercel.join('&')}`,
    cloudflare: `https://deploy.workers.cloudflare.com/?url=${repo}`,
  };
}

/** Vercel shows one description for all the variables it asks for. */
function vercelDescription(): string {
  const optional = deployVariables('vercel')
    .filter(({ need }) => need === 'optional')
    .map(({ name }) => name);
  return `DATABASE_URL: your PostgreSQL URL. NOTIFY_WEBHOOK_URL: a Discord, Slack or ntfy webhook for new messages. CRON_SECRET: any random text of 16+ characters. Later, in the project's settings: ${optional.join(', ')}.`;
}

const BADGES: Record<FunctionHostName, { label: string; image: string }> = {
  netlify: { label: 'Deploy to Netlify', image: 'https://www.netlify.com/img/deploy/button.svg' },
  vercel: { label: 'Deploy with Vercel', image: 'https://vercel.com/button' },
  cloudflare: { label: 'Deploy to Cloudflare', image: 'https://deploy.workers.cloudflare.com/button' },
};

/** The three buttons as Markdown, one line, for a README. */
export function deployButtonsMarkdown(repository: string): string {
  const links = deployLinks(repository);
  return (Object.keys(BADGES) as FunctionHostName[])
    .map((host) => `[![${BADGES[host].label}](${BADGES[host].image})](${links[host]})`)
    .join(' ');
}
