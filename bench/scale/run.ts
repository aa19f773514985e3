/**
 * `npm run bench:scale N`: the site at N projects. Copies this working tree (without node_modules,
 * dist and .git; node_modules is linked) to a folder of its own, tops its content/projects up to N
 * (generate-projects.ts), runs each step of `npm run build` there and times it, then runs the
 * copy's own `bench/run.ts` on the copy's build for the read, search and contact targets (one run
 * per BENCH_ONLY pattern) and prints one table: build time per step, dist size, idle RSS of the
 * started server, and each target's figures.
 *
 *   BENCH_SCALE_DIR=<dir>         where the copy goes (default: a new folder under the system temp)
 *   BENCH_SCALE_TARGETS=a,b       the BENCH_ONLY patterns (default: project reads, search, contact)
 *   BENCH_SCALE_REBUILD=1         also rebuild after editing one project, to time a warm rebuild
 *   BENCH_SCALE_BENCH=0           build and measure the output only, no traffic
 *
 * The copy's node_modules is a folder of its own holding a link to each installed package, so
 * Astro's cache and the build cache (node_modules/.astro, src/lib/build-cache.ts) start empty: the
 * first build is cold whatever earlier builds left. BENCH_RUNS, BENCH_SECONDS and the other
 * variables of bench/run.ts pass through.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../processes.ts';
import { scenarios } from '../scenarios.ts';
import { generateProjects } from './generate-projects.ts';

const count = Number(process.argv[2]);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: npm run bench:scale <number of projects>\n');
  process.exit(2);
}

const LEFT_OUT = new Set(['node_modules', 'dist', '.git', '.astro']);
const copy = path.resolve(process.env.BENCH_SCALE_DIR ?? mkdtempSync(path.join(tmpdir(), `portfolio-scale-${count}-`)));
const TARGETS = (process.env.BENCH_SCALE_TARGETS ?? 'GET /api/v1/projects,search,contact').split(',').filter(Boolean);

function log(line: string): void {
  process.stderr.write(`bench:scale: ${line}\n`);
}

/** The CPU seconds (user and system) of a finished shell's children, from the `times` builtin's second line. */
function childCpuSeconds(timesOutput: string): number {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, min, sec]) => sum + Number(min) * 60 + Number(sec), 0);
}

interface Ran {
  seconds: number;
  /** CPU time of the command's processes: on a shared machine the steadier figure. */
  cpuSeconds: number;
  output: string;
}

/** Runs a shell command in the copy, its output into a log file; resolves with its wall and CPU seconds, or rejects on failure. */
function run(command: string, logName: string, env: Record<string, string> = {}): Promise<Ran> {
  const logFile = path.join(copy, '.bench-scale', `${logName}.log`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // `times` on fd 3: the CPU the command's processes used, apart from their own output.
    const child = spawn('bash', ['-c', `${command}\nstatus=$?\ntimes >&3\nexit $status`], {
      cwd: copy,
      env: {
        ...process.env,
        PATH: `${path.join(copy, 'node_modules/.bin')}:${process.env.PATH}`,
        BUILD_CACHE_DIR: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    const times: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdio[3]!.on('data', (chunk: Buffer) => times.push(chunk));
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString();
      writeFileSync(logFile, output);
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) resolve({ seconds, cpuSeconds: childCpuSeconds(Buffer.concat(times).toString()), output });
      else reject(new Error(`${command} exited with ${code}; see ${logFile}`));
    });
  });
}

/** Each step of `npm run build`, as package.json lists them, timed on its own. */
async function timedBuild(label: string): Promise<(Ran & { step: string })[]> {
  const build = (JSON.parse(readFileSync(path.join(copy, 'package.json'), 'utf8')) as { scripts: { build: string } })
    .scripts.build;
  const steps = [];
  for (const [index, step] of build.split(' && ').entries()) {
    const ran = await run(step, `${label}-${index}`);
    log(`${label}: ${step}: ${ran.seconds.toFixed(1)} s, ${ran.cpuSeconds.toFixed(1)} s CPU`);
    steps.push({ step, ...ran });
  }
  return steps;
}

function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const minutes = (seconds: number) =>
  `${seconds.toFixed(1)} s${seconds >= 60 ? ` (${(seconds / 60).toFixed(1)} min)` : ''}`;

// The copy: this working tree as it is, uncommitted changes included.
mkdirSync(copy, { recursive: true });
cpSync(ROOT, copy, {
  recursive: true,
  filter: (source) => !LEFT_OUT.has(path.basename(source)) || path.dirname(source) !== path.resolve(ROOT),
});
const modules = realpathSync(path.join(ROOT, 'node_modules'));
mkdirSync(path.join(copy, 'node_modules'));
for (const name of readdirSync(modules)) {
  if (name === '.astro' || name === '.cache') continue;
  symlinkSync(path.join(modules, name), path.join(copy, 'node_modules', name));
}
mkdirSync(path.join(copy, '.bench-scale'), { recursive: true });
const projectsDir = path.join(copy, 'content/projects');
generateProjects(projectsDir, count);
const projects = readdirSync(projectsDir).filter((name) => name.endsWith('.md'));
log(`${projects.length} projects in ${copy}`);

const steps = await timedBuild('build');
const client = sizeOf(path.join(copy, 'dist/client'));
const dist = sizeOf(path.join(copy, 'dist'));
const ogLine = steps.map(({ output }) => /Open Graph images: [^(\n]*[^(\s]/.exec(output)?.[0]).find(Boolean);

let rebuild: { seconds: number; cpuSeconds: number; og: string | undefined } | undefined;
if (process.env.BENCH_SCALE_REBUILD === '1') {
  // One project's description edited: its page, its card and the lists that show it change.
  const edited = path.join(projectsDir, projects.sort().at(-1)!);
  writeFileSync(edited, readFileSync(edited, 'utf8').replace(/^description: .*$/m, '$& (edited)'));
  const again = await timedBuild('rebuild');
  rebuild = {
    seconds: again.reduce((sum, { seconds }) => sum + seconds, 0),
    cpuSeconds: again.reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0),
    og: again.map(({ output }) => /Open Graph images: [^(\n]*[^(\s]/.exec(output)?.[0]).find(Boolean),
  };
}

/** The rows of bench/run.ts's table for a pattern, and the idle RSS of its cold start. */
async function benchRows(pattern: string, coldRuns: number): Promise<{ rows: string[][]; idleRss?: string }> {
  const { output } = await run('node --import tsx bench/run.ts', `bench-${pattern.replace(/\W+/g, '-')}`, {
    BENCH_ONLY: pattern,
    BENCH_CEILING: '0',
    BENCH_COLD_RUNS: String(coldRuns),
    BENCH_PROFILE_SECONDS: '0',
  });
  const rows = output
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| clients'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return {
    rows: [...new Map(rows.map((row) => [row[0], row])).values()],
    idleRss: /idle RSS ([\d.]+ MiB)/.exec(output)?.[1],
  };
}

const targets: string[][] = [];
let idleRss: string | undefined;
if (process.env.BENCH_SCALE_BENCH !== '0') {
  for (const [index, pattern] of TARGETS.entries()) {
    if (!scenarios.some((scenario) => scenario.name.includes(pattern))) {
      targets.push([`${pattern}: no scenario in bench/scenarios.ts`]);
      continue;
    }
    const result = await benchRows(pattern, index === 0 ? 3 : 0);
    idleRss ??= result.idleRss;
    targets.push(...result.rows);
  }
}

const total = steps.reduce((sum, { seconds }) => sum + seconds, 0);
const totalCpu = steps.reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0);
const lines = [
  '',
  `Scale: ${projects.length} projects, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}; copy in ${copy}`,
  '',
  '| build step | time | CPU time |',
  '|---|---|---|',
  ...steps.map(
    ({ step, seconds, cpuSeconds }) =>
      `| \`${step.replace(/^node (--import tsx )?/, '')}\` | ${minutes(seconds)} | ${minutes(cpuSeconds)} |`,
  ),
  `| **npm run build** | **${minutes(total)}** | **${minutes(totalCpu)}** |`,
  ...(rebuild === undefined
    ? []
    : [`| rebuild after editing one project | ${minutes(rebuild.seconds)} | ${minutes(rebuild.cpuSeconds)} |`]),
  '',
  '| output | figure |',
  '|---|---|',
  `| dist/client | ${client.files} files, ${mib(client.bytes)} |`,
  `| dist | ${dist.files} files, ${mib(dist.bytes)} |`,
  ...(ogLine === undefined ? [] : [`| first build | ${ogLine} |`]),
  ...(rebuild?.og === undefined ? [] : [`| rebuild | ${rebuild.og} |`]),
  ...(idleRss === undefined ? [] : [`| idle RSS of the started server (median of 3 cold starts) | ${idleRss} |`]),
  '',
  ...(targets.length === 0
    ? []
    : [
        '| target | req/s | ratio to bare | p99 ms | server µs CPU/answer | bare µs CPU/answer | CPU ratio |',
        '|---|---|---|---|---|---|---|',
        ...targets.map((row) =>
          row.length === 1
            ? `| ${row[0]} | | | | | | |`
            : `| ${row[0]} | ${row[1]} | ${row[3]} | ${row[5]} | ${row[9]} | ${row[10]} | ${row[11]} |`,
        ),
        '',
      ]),
];
process.stdout.write(`${lines.join('\n')}\n`);
