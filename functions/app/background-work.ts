import type { Channel } from '../contact/message-store.ts';
import type { Notifier } from '../contact/notifier.ts';
import type { JobService } from '../jobs/job-service.ts';

/** What one scheduled pass did. */
export interface PassReport {
  /** Sends tried, by channel. */
  deliveries: Partial<Record<Channel, number>>;
  /** Jobs of dead workers given back to the queue (or failed), and jobs this pass ran. */
  jobs: { reaped: number; started: number };
}

/**
 * The work a long-lived server does on timers, for hosts that keep nothing running between
 * requests: the outbox's deliveries (contact/notifier.ts), the job worker and its reaper
 * (jobs/job-worker.ts) and the purge of expired records. None of it runs unless asked:
 *
 * - `takeDue()` after a request: the deliveries of a message it stored, the job it queued; a
 *   host passes the promise to `waitUntil`, which keeps the instance alive until it settles.
 * - `runPass()` from a scheduled function: one bounded pass of everything, which also catches
 *   what a kick missed (a host without `waitUntil`, an instance that died, a retry come due).
 *
 * The flags are only hints for this instance: what is due lives in PostgreSQL (the outbox, the
 * queue), so a flag lost with its instance costs a delay until the next pass, never a message.
 */
export class BackgroundWork {
  private deliveriesDue = false;
  private jobsDue = false;

  constructor(
    private readonly notifiers: readonly Notifier[],
    private readonly jobs: () => JobService,
    private readonly purge: () => Promise<void>,
  ) {}

  /** A message was stored: its deliveries are due. */
  markDeliveriesDue(): void {
    if (this.notifiers.length > 0) this.deliveriesDue = true;
  }

  /** A job was queued. */
  markJobsDue(): void {
    this.jobsDue = true;
  }

  /** Starts the work this instance's requests left due since the last call; undefined when there is none. */
  takeDue(): Promise<void> | undefined {
    const work: Promise<unknown>[] = [];
    if (this.deliveriesDue) work.push(...this.notifiers.map((notifier) => notifier.deliverOnce()));
    if (this.jobsDue) work.push(this.jobs().runPass());
    this.deliveriesDue = this.jobsDue = false;
    return work.length === 0 ? undefined : Promise.all(work).then(() => undefined);
  }

  /** One bounded pass of everything: the purge, a batch of due deliveries per channel, the reaper and a slot-full of jobs. */
  async runPass(): Promise<PassReport> {
    await this.purge();
    const sent = await Promise.all(this.notifiers.map((notifier) => notifier.deliverOnce()));
    const deliveries: PassReport['deliveries'] = {};
    this.notifiers.forEach((notifier, index) => (deliveries[notifier.channel] = sent[index]));
    return { deliveries, jobs: await this.jobs().runPass() };
  }
}
