import { isUnavailable } from './pg-errors.ts';

/** How many batches may be in flight at once, and how many items one carries at most. */
export interface PgGroupCommitLimits {
  inFlight: number;
  batch: number;
}

interface Waiting<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive while `limits.inFlight` batches are running wait, and go
 * together as the next batch, one statement and one commit for all of them, as soon as one of
 * those batches ends. Under light load each item goes alone at once (no timer, no added wait);
 * under load the round trips, statements and disk flushes per item fall with the batch's size.
 *
 * `run` answers each item of a batch, in order, or throws for the whole batch (a single
 * statement commits all or nothing). A batch of several that fails for any reason other than
 * the database being unreachable is run again item by item, so one item's error stays its own.
 */
export class PgGroupCommit<In, Out> {
  private readonly waiting: Waiting<In, Out>[] = [];
  private running = 0;

  constructor(
    private readonly run: (items: In[]) => Promise<Out[]>,
    private readonly limits: PgGroupCommitLimits,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.running < this.limits.inFlight) void this.next();
    });
  }

  private async next(): Promise<void> {
    this.running++;
    try {
      while (this.waiting.length > 0) await this.send(this.waiting.splice(0, this.limits.batch));
    } finally {
      this.running--;
    }
  }

  private async send(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      const outs = await this.run(batch.map((one) => one.item));
      batch.forEach((one, index) => one.resolve(outs[index]!));
    } catch (error) {
      if (batch.length === 1 || isUnavailable(error)) for (const one of batch) one.reject(error);
      else for (const one of batch) await this.send([one]);
    }
  }
}
