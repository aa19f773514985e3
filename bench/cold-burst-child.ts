import { createInterface } from 'node:readline';
import type { ServiceFunction } from '../functions/hosts/fetch/create-fetch-handler.ts';
import { contactRequest, functionInstance, loadBuildData, readRequest } from './function-instances.ts';

/**
 * Part of a burst of cold function instances, for bench/function-bursts.ts: once it has printed
 * `{"ready":true}` and read a line on stdin, `count` new instances (createFetchHandler each) on
 * DATABASE_URL, numbered from `first`, started at once, each answering one request: a contact
 * post (`contact`), or a read and a post by turns (`mixed`), each from a client address of its
 * own. Prints one JSON line: the time from the first instance's creation to the last answer,
 * this process's CPU time meanwhile, and the count of each kind and status.
 */
const [mode, firstText, countText] = process.argv.slice(2);
const first = Number(firstText);
const count = Number(countText);
const env = { DATABASE_URL: process.env.DATABASE_URL as string, CONTACT_RATE_LIMIT: '100000/600' };
const instances: ServiceFunction[] = [];

loadBuildData();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));

const cpuBefore = process.cpuUsage();
const started = performance.now();
const answers = await Promise.all(
  Array.from({ length: count }, async (_, offset) => {
    const index = first + offset;
    const kind = mode === 'mixed' && index % 2 === 0 ? 'read' : 'contact';
    const service = functionInstance(env);
    instances.push(service);
    const response = await service.fetch(kind === 'read' ? readRequest() : contactRequest(`Cold instance ${index}`), {
      clientIp: `198.51.100.${index % 250}`,
    });
    await response.arrayBuffer();
    return `${kind} ${response.status}`;
  }),
);
const allAnsweredMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

const statuses: Record<string, number> = {};
for (const answer of answers) statuses[answer] = (statuses[answer] ?? 0) + 1;
process.stdout.write(`${JSON.stringify({ allAnsweredMs, cpuMs: (cpu.user + cpu.system) / 1000, statuses })}\n`);
await Promise.all(instances.map((service) => service.close()));
process.exit(0);
