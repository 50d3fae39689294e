/**
 * Group commit for the turn's hot statements (issue 25, speed step): calls made in the same turn
 * of the event loop, and calls that arrive while the database is busy with earlier ones, are run
 * together as one statement, so under load N turns cost one round trip (one socket write, one
 * parse/plan, one WAL flush) instead of N.
 *
 * Two triggers, no timer: a call that finds a free slot is run at the end of the current event-loop
 * turn (`setImmediate`, as DataLoader batches), with every call made meanwhile — the requests whose
 * bytes arrived in the same poll phase; and calls made while every slot is busy go together as
 * soon as one frees up (adaptive group commit). The first matters on PGlite, whose queries run
 * synchronously in this thread (nothing else arrives while one runs); the second on PostgreSQL.
 * An idle server waits at most one event-loop turn (microseconds).
 */

/** Runs a batch: one result per item, in the items' order. */
export type BatchRunner<In, Out> = (items: readonly In[]) => Promise<Out[]>;

/** Options of {@link MicroBatcher}. */
export interface MicroBatcherOptions {
  /** Batches in flight at once; more calls wait and join the next batch. Default 2. */
  concurrency?: number;
  /** Most items in one batch (a larger backlog is split). Default 64. */
  maxBatch?: number;
}

interface Pending<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (reason: unknown) => void;
}

/**
 * Collects calls and runs them in batches through `run`.
 *
 * Errors: when a batch of several items fails, each item is run again alone, so one bad item (a
 * constraint it breaks) fails only its own call; a batch of one rejects with the runner's error,
 * unchanged. A runner that returns fewer results than items rejects the calls left without one.
 */
export class MicroBatcher<In, Out> {
  private queue: Array<Pending<In, Out>> = [];
  private inFlight = 0;
  /** A batch start is scheduled for the end of this event-loop turn. */
  private scheduled = false;
  private readonly concurrency: number;
  private readonly maxBatch: number;

  constructor(
    private readonly run: BatchRunner<In, Out>,
    options: MicroBatcherOptions = {},
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxBatch = Math.max(1, options.maxBatch ?? 64);
  }

  /** Runs `item` in the next batch; resolves with its result. */
  call(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.inFlight < this.concurrency && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  /** Starts a batch with what is queued, when a slot is free. */
  private next(): void {
    if (this.queue.length === 0 || this.inFlight >= this.concurrency) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.inFlight++;
    void this.execute(batch).finally(() => {
      this.inFlight--;
      this.next();
    });
  }

  private async execute(batch: Array<Pending<In, Out>>): Promise<void> {
    try {
      const results = await this.run(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        if (i < results.length) p.resolve(results[i] as Out);
        else p.reject(new Error('batch returned no result for this item'));
      });
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One item may have failed the batch: each runs alone, so only that one's call fails.
      await Promise.all(
        batch.map(async (p) => {
          try {
            const [result] = await this.run([p.item]);
            p.resolve(result as Out);
          } catch (itemErr) {
            p.reject(itemErr);
          }
        }),
      );
    }
  }
}

/**
 * One batcher per key object (a database handle), made on first use; a handle that is dropped
 * takes its batcher with it.
 */
export function batcherPer<K extends object, In, Out>(
  make: (key: K) => MicroBatcher<In, Out>,
): (key: K) => MicroBatcher<In, Out> {
  const batchers = new WeakMap<K, MicroBatcher<In, Out>>();
  return (key) => {
    let batcher = batchers.get(key);
    if (!batcher) {
      batcher = make(key);
      batchers.set(key, batcher);
    }
    return batcher;
  };
}
