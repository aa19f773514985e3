import autocannon from 'autocannon';
import { liveScenario, scenarios } from './scenarios.ts';

/**
 * The load generator, in a process of its own (`fork`ed by `bench/load-client.ts`), so that the
 * process being measured never shares an event loop with the one sending the requests. It waits
 * for a {@link FireOrder} on its IPC channel, runs autocannon for it and answers with a
 * {@link Sample}, which includes the CPU time this process used meanwhile: a client near a whole
 * core would be the bottleneck, not the server.
 */
export interface FireOrder {
  port: number;
  /** The name of a scenario in `bench/scenarios.ts` (functions cannot cross the process boundary). */
  scenario: string;
  connections: number;
  seconds: number;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** What the errors were (each kind once, with its count), so that a run's failure says why. */
  errorKinds: string[];
  /** CPU time this client used during the run, as a share of one core (1 = a whole core). */
  clientCpu: number;
}

async function fire(order: FireOrder): Promise<Sample> {
  const named = scenarios.find((candidate) => candidate.name === order.scenario);
  if (named === undefined) throw new Error(`no scenario named ${order.scenario}`);
  const scenario = await liveScenario(named, order.port);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const kinds = new Map<string, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: `http://127.0.0.1:${order.port}${scenario.path}`,
        method: scenario.method,
        connections: order.connections,
        duration: order.seconds,
        headers: scenario.headers,
        body: scenario.sampleBody,
        ...(scenario.requests ? { requests: scenario.requests() } : {}),
      },
      (error, finished) => (error ? reject(error as Error) : resolve(finished)),
    );
    run.on('reqError', (error: Error) => kinds.set(error.message, (kinds.get(error.message) ?? 0) + 1));
  });
  const cpu = process.cpuUsage(cpuBefore);
  const wallMicros = (performance.now() - started) * 1000;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // A scenario that expects a 304 counts only the other statuses as unexpected.
    non2xx: result.non2xx - (scenario.expectStatus === undefined ? 0 : expectedCount(result, scenario.expectStatus)),
    errors: result.errors + result.timeouts,
    errorKinds: [...kinds].map(([message, count]) => `${count} × ${message}`),
    clientCpu: (cpu.user + cpu.system) / wallMicros,
  };
}

function expectedCount(result: autocannon.Result, status: number): number {
  const stats = result.statusCodeStats as Record<string, { count: number } | undefined>;
  return stats[String(status)]?.count ?? 0;
}

process.on('message', (order: FireOrder) => {
  fire(order).then(
    (sample) => process.send!({ sample }),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.send!({ ready: true });
