/**
 * Scheduled jobs (engine/jobs) on each store: a job due later runs once, not before it is due; a
 * key sent twice runs once, and a cancelled key does not run and is free again; a failing handler
 * is retried until it succeeds, and a job failing every attempt stops after its retries; two queues
 * on one database run 200 jobs once each; a process killed mid-job (a real child process, SIGKILL)
 * has its job run again by another after the lease; a job due later survives closing and reopening
 * the store; a handler past its lease is aborted and retried; cron schedules create runs; a job
 * sent in a rolled-back transaction never runs; the composed app runs jobs once its channels start;
 * and pg-boss's statements never run inside, or break, a Kysely transaction on PGlite's single
 * connection.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineJob,
  type Job,
  JobQueue,
  JobQueueNotStarted,
  type JobQueueOptions,
} from '../engine/jobs/index.ts';
import { createLogger } from '../engine/logger.ts';
import { openStore, type Store, type StoreKind } from '../engine/store/connect.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf, testDataDir, testStore } from './helpers/db.ts';
import { crashJob, until } from './helpers/jobs.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POLL_MS = 200;
/** Long enough for a duplicate run to have shown up (several polls). */
const SETTLE_MS = 3 * POLL_MS;
const Note = z.object({ n: z.number().int() });

/** Opens a store like another process would: the same PGlite data dir or PostgreSQL schema. */
async function reopen(kind: StoreKind, where: { dataDir?: string; schema: string }): Promise<Store> {
  return kind === 'pglite'
    ? openStore({ dataDir: where.dataDir! })
    : openStore({ databaseUrl: process.env.TEST_DATABASE_URL!, schema: where.schema, poolSize: 2 });
}

describe.each(dialectsOf(import.meta.url))('scheduled jobs on %s', (kind) => {
  let store: Store;
  const queues: JobQueue[] = [];
  const queue = (options: Partial<JobQueueOptions> = {}, on: Store = store) => {
    const q = new JobQueue({ store: on, log, pollIntervalMs: POLL_MS, leaseCheckSeconds: 1, ...options });
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    store = await testStore(kind);
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop()));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('runs a job due in 2 s once, not before it is due', async () => {
    const due = defineJob({ name: 'test.due', data: Note });
    const runs: { at: number; job: Job<{ n: number }> }[] = [];
    const jobs = queue();
    jobs.register(due, async (job) => {
      runs.push({ at: Date.now(), job });
    });
    await jobs.start();
    const runAt = new Date(Date.now() + 2000);
    const id = await jobs.send(due, { n: 1 }, { runAt });
    await until('the job ran', () => runs.length > 0);
    await sleep(SETTLE_MS);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.at).toBeGreaterThanOrEqual(runAt.getTime());
    expect(runs[0]!.job).toMatchObject({ id, data: { n: 1 }, attempt: 1, key: null });
  });

  it('runs a key sent twice once; a cancelled key does not run and can be sent again', async () => {
    const reminder = defineJob({ name: 'test.reminder', data: Note });
    const ran: string[] = [];
    const jobs = queue();
    jobs.register(reminder, async (job) => {
      ran.push(`${job.key}:${job.data.n}`);
    });
    await jobs.start();
    const first = await jobs.send(
      reminder,
      { n: 1 },
      { key: 'reserva-7:24h', runAt: new Date(Date.now() + 500) },
    );
    expect(first).toEqual(expect.any(String));
    expect(await jobs.send(reminder, { n: 2 }, { key: 'reserva-7:24h' })).toBeNull();
    // Cancelled before it is due: it never runs, and the key is free for its replacement.
    await jobs.send(reminder, { n: 3 }, { key: 'reserva-8:24h', runAt: new Date(Date.now() + 60_000) });
    expect(await jobs.cancel(reminder, 'reserva-8:24h')).toBe(true);
    expect(await jobs.cancel(reminder, 'reserva-8:24h')).toBe(false);
    await jobs.send(reminder, { n: 4 }, { key: 'reserva-8:24h' });
    await until('both keys ran', () => ran.length >= 2);
    await sleep(SETTLE_MS);
    expect(ran.sort()).toEqual(['reserva-7:24h:1', 'reserva-8:24h:4']);
    // A finished job keeps its key: sending it again does nothing.
    expect(await jobs.send(reminder, { n: 5 }, { key: 'reserva-7:24h' })).toBeNull();
    await sleep(SETTLE_MS);
    expect(ran).toHaveLength(2);
  });

  it('retries a failing handler until it succeeds, and stops after the last retry of one that always fails', async () => {
    const flaky = defineJob({
      name: 'test.flaky',
      data: Note,
      retryLimit: 3,
      retryBackoff: false,
      retryDelaySeconds: 0,
    });
    const broken = defineJob({
      name: 'test.broken',
      data: Note,
      retryLimit: 2,
      retryBackoff: false,
      retryDelaySeconds: 0,
    });
    const flakyAttempts: number[] = [];
    const brokenAttempts: number[] = [];
    const jobs = queue();
    jobs.register(flaky, async (job) => {
      flakyAttempts.push(job.attempt);
      if (job.attempt < 3) throw new Error('el servicio no responde');
    });
    jobs.register(broken, async (job) => {
      brokenAttempts.push(job.attempt);
      throw new Error('siempre falla');
    });
    await jobs.start();
    await jobs.send(flaky, { n: 1 });
    await jobs.send(broken, { n: 1 });
    await until('the flaky job succeeded', () => flakyAttempts.length >= 3);
    await until('the broken job used its retries', () => brokenAttempts.length >= 3);
    await sleep(SETTLE_MS);
    expect(flakyAttempts).toEqual([1, 2, 3]);
    expect(brokenAttempts).toEqual([1, 2, 3]);
  });

  it('refuses data that does not match the schema, storing nothing', async () => {
    const strict = defineJob({ name: 'test.strict', data: Note });
    const jobs = queue();
    let ran = 0;
    jobs.register(strict, async () => {
      ran++;
    });
    await jobs.start();
    await expect(jobs.send(strict, { n: 'uno' } as unknown as { n: number })).rejects.toThrow(
      /expected number/,
    );
    await sleep(SETTLE_MS);
    expect(ran).toBe(0);
  });

  it('two queues on one database (two processes) run 200 jobs exactly once each', async () => {
    const fanOut = defineJob({ name: 'test.fanout', data: Note, concurrency: 4 });
    // PGlite is single-process: the "second process" is a second JobQueue on the same store.
    const other = kind === 'postgres' ? await reopen('postgres', { schema: store.schema }) : undefined;
    const second = other ?? store;
    try {
      const seen = new Map<number, string[]>();
      const a = queue();
      const b = queue({}, second);
      for (const [label, q] of [
        ['a', a],
        ['b', b],
      ] as const) {
        q.register(fanOut, async (job) => {
          await sleep(5); // a little work, so both queues get some
          seen.set(job.data.n, [...(seen.get(job.data.n) ?? []), label]);
        });
      }
      await a.start();
      await b.start();
      await a.sendMany(
        fanOut,
        Array.from({ length: 200 }, (_, n) => ({ data: { n }, key: `seguidor-${n}` })),
      );
      await until('200 jobs ran', () => seen.size === 200);
      await sleep(SETTLE_MS);
      expect([...seen.values()].filter((who) => who.length !== 1)).toEqual([]);
      const byA = [...seen.values()].filter((who) => who[0] === 'a').length;
      expect(byA).toBeGreaterThan(0);
      expect(byA).toBeLessThan(200);
    } finally {
      await Promise.all(queues.splice(0).map((q) => q.stop()));
      await other?.close();
    }
  });

  it.runIf(kind === 'postgres')(
    'two processes starting at once on an empty database both create the queues and run jobs',
    async () => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) =>
        defineJob({ name: `test.boot-${x}`, data: Note }),
      );
      for (let attempt = 0; attempt < 3; attempt++) {
        // A fresh schema each time, so pg-boss's schema and every queue are created by the race.
        const first = await testStore('postgres');
        const second = await reopen('postgres', { schema: first.schema });
        try {
          const ran: string[] = [];
          const [a, b] = [queue({}, first), queue({}, second)];
          for (const [label, q] of [
            ['a', a],
            ['b', b],
          ] as const)
            for (const d of names) q.register(d, async () => void ran.push(label));
          await Promise.all([a.start(), b.start()]);
          await b.send(names[5]!, { n: 1 });
          await a.send(names[0]!, { n: 2 });
          await until('both jobs ran', () => ran.length === 2);
        } finally {
          await Promise.all(queues.splice(0).map((q) => q.stop()));
          await second.close();
          await first.close();
        }
      }
    },
  );

  it('starts again after a start that failed because the database was away', async () => {
    let away = true;
    const flaky: Store = {
      ...store,
      raw: {
        executeSql: (text, values) =>
          away
            ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'))
            : store.raw.executeSql(text, values),
      },
    };
    const restarted = defineJob({ name: 'test.restart-start', data: Note });
    const q = queue({}, flaky);
    const ran: number[] = [];
    q.register(restarted, async (job) => void ran.push(job.data.n));
    await expect(q.start()).rejects.toThrow(/ECONNREFUSED/);
    expect(q.running).toBe(false);
    away = false;
    await q.start();
    expect(q.running).toBe(true);
    await q.send(restarted, { n: 7 });
    await until('the job ran', () => ran.length === 1);
    expect(ran).toEqual([7]);
  });

  it('runs again the job of a process killed mid-job, once its lease is over', async () => {
    const dataDir = kind === 'pglite' ? await testDataDir() : undefined;
    const args =
      kind === 'pglite' ? ['pglite', dataDir!] : ['postgres', process.env.TEST_DATABASE_URL!, store.schema];
    const child: ChildProcess = spawn(
      process.execPath,
      ['bin/run-ts.js', 'test/helpers/jobs-child.ts', ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let survivor: Store | undefined;
    try {
      await until(
        'the child claimed the job',
        () => /^claimed /m.test(out) || child.exitCode !== null,
        60_000,
      );
      const [, jobId, attempt] = /^claimed (\S+) (\d+)$/m.exec(out) ?? [];
      expect(attempt, out).toBe('1');
      child.kill('SIGKILL');
      await exited;
      // Another process (PGlite: the next one to open the data dir) takes the job over.
      survivor = kind === 'pglite' ? await reopen('pglite', { dataDir: dataDir!, schema: 'public' }) : store;
      const runs: Job<{ step: string }>[] = [];
      const jobs = queue({}, survivor);
      jobs.register(crashJob, async (job) => {
        runs.push(job);
      });
      await jobs.start();
      await until('the job ran again', () => runs.length > 0);
      await sleep(SETTLE_MS);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ id: jobId, attempt: 2, data: { step: 'killed mid-job' } });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await Promise.all(queues.splice(0).map((q) => q.stop()));
      if (kind === 'pglite') {
        await survivor?.close();
        rmSync(dataDir!, { recursive: true, force: true });
      }
    }
  });

  it('keeps a job due later across closing and reopening the store', async () => {
    const later = defineJob({ name: 'test.later', data: Note });
    const dataDir = kind === 'pglite' ? await testDataDir() : undefined;
    const where = { ...(dataDir ? { dataDir } : {}), schema: store.schema };
    let first: Store | undefined = await reopen(kind, where);
    let second: Store | undefined;
    try {
      const before = queue({}, first);
      let ranBefore = 0;
      before.register(later, async () => {
        ranBefore++;
      });
      await before.start();
      const runAt = new Date(Date.now() + 3000);
      const id = await before.send(later, { n: 42 }, { runAt });
      await before.stop();
      await first.close();
      first = undefined;

      second = await reopen(kind, where);
      const runs: Job<{ n: number }>[] = [];
      const after = queue({}, second);
      after.register(later, async (job) => {
        runs.push(job);
      });
      await after.start();
      await until('the job ran after the restart', () => runs.length > 0);
      await sleep(SETTLE_MS);
      expect(ranBefore).toBe(0);
      expect(runs.map((j) => [j.id, j.data.n, j.attempt])).toEqual([[id, 42, 1]]);
    } finally {
      await Promise.all(queues.splice(0).map((q) => q.stop()));
      await first?.close();
      await second?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('aborts a handler that runs past its lease and retries the job', async () => {
    const slow = defineJob({
      name: 'test.slow',
      data: Note,
      leaseSeconds: 1,
      retryBackoff: false,
      retryDelaySeconds: 0,
    });
    const attempts: { attempt: number; aborted: string }[] = [];
    const jobs = queue();
    jobs.register(slow, async (job) => {
      if (job.attempt === 1) {
        await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
        attempts.push({ attempt: job.attempt, aborted: String((job.signal.reason as Error).message) });
        return; // too late: the attempt was already given up
      }
      attempts.push({ attempt: job.attempt, aborted: '' });
    });
    await jobs.start();
    await jobs.send(slow, { n: 1 });
    await until('the second attempt ran', () => attempts.some((a) => a.attempt === 2));
    await sleep(SETTLE_MS);
    expect(attempts).toEqual([
      { attempt: 1, aborted: 'the job ran past its lease of 1 s' },
      { attempt: 2, aborted: '' },
    ]);
  });

  it('creates the runs of a cron schedule', async () => {
    const nightly = defineJob({ name: 'test.cron', data: Note });
    const runs: number[] = [];
    const jobs = queue({ cronCheckSeconds: 1 });
    jobs.register(nightly, async (job) => {
      runs.push(job.data.n);
    });
    await jobs.start();
    // Every minute: the current minute's run is due as soon as the schedule is seen.
    await jobs.schedule(nightly, '* * * * *', { tz: 'Europe/Madrid', data: { n: 7 } });
    await until('the cron run ran', () => runs.length > 0);
    expect(runs[0]).toBe(7);
    await jobs.unschedule(nightly);
    await expect(jobs.schedule(nightly, 'no es cron', { data: { n: 1 } })).rejects.toThrow();
  });

  it('stores a job sent inside a transaction only if the transaction commits', async () => {
    const hold = defineJob({ name: 'test.hold', data: Note });
    const ran: number[] = [];
    const jobs = queue();
    jobs.register(hold, async (job) => {
      ran.push(job.data.n);
    });
    await jobs.start();
    await expect(
      store.db.transaction().execute(async (trx) => {
        await jobs.send(hold, { n: 1 }, { transaction: trx });
        throw new Error('la reserva no se guardó');
      }),
    ).rejects.toThrow('la reserva no se guardó');
    await store.db.transaction().execute(async (trx) => {
      await jobs.send(hold, { n: 2 }, { transaction: trx });
    });
    // A queue not ready yet cannot be created from inside the transaction: a clear error, no deadlock.
    const unregistered = defineJob({ name: 'test.unregistered', data: Note });
    await expect(
      store.db.transaction().execute((trx) => jobs.send(unregistered, { n: 3 }, { transaction: trx })),
    ).rejects.toThrow(/inside a transaction only once the queue is started/);
    await until('the committed job ran', () => ran.length > 0);
    await sleep(SETTLE_MS);
    expect(ran).toEqual([2]);
  });

  it('runs the jobs of the composed app once its channels start, and stops them on close', async () => {
    const app = await createTestApp(kind);
    try {
      const welcome = defineJob({ name: 'test.app', data: Note });
      const ran: number[] = [];
      app.jobs.register(welcome, async (job) => {
        ran.push(job.data.n);
      });
      await expect(app.jobs.send(welcome, { n: 1 })).rejects.toThrow(JobQueueNotStarted);
      await app.startChannels();
      await app.jobs.send(welcome, { n: 2 });
      await until('the job ran', () => ran.length > 0);
      expect(ran).toEqual([2]);
    } finally {
      await app.close();
    }
  });

  it('never runs its statements inside a transaction of the store, nor leaves the connection in a failed one', async () => {
    const outside = defineJob({ name: 'test.outside', data: Note });
    const ran: number[] = [];
    const jobs = queue();
    jobs.register(outside, async (job) => {
      ran.push(job.data.n);
    });
    await jobs.start();
    // A send started while a transaction is open is not part of it: the rollback keeps the job.
    let sent: Promise<string | null> | undefined;
    await expect(
      store.db.transaction().execute(async (trx) => {
        sent = jobs.send(outside, { n: 1 });
        await sleep(300); // the queue's polls and the send come meanwhile
        await sql`select 1`.execute(trx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await sent).toEqual(expect.any(String));
    await until('the job ran', () => ran.length > 0);
    expect(ran).toEqual([1]);
    // A failing BEGIN…COMMIT text (pg-boss's maintenance form) is rolled back whole.
    await expect(store.raw.executeSql('BEGIN; SELECT 1; SELECT 1/0; COMMIT;')).rejects.toThrow(
      /division by zero/,
    );
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(store.db);
    expect(rows).toEqual([{ ok: 1 }]);
    expect((await store.raw.executeSql('SELECT 2 AS two; SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
  });
  it('runs a job sent while the worker was looking, without waiting for the next look of the clock', async () => {
    // Each look for due jobs answers 300 ms after it ran: a job sent meanwhile is not in its answer.
    let looking = 0;
    const slow: Store = {
      ...store,
      raw: {
        executeSql: async (text, values) => {
          const result = await store.raw.executeSql(text, values);
          if (/WITH next as/i.test(text) && String(values?.[0] ?? '') === 'test.sent-while-looking') {
            looking++;
            await sleep(300);
          }
          return result;
        },
      },
    };
    const sent = defineJob({ name: 'test.sent-while-looking', data: Note });
    const ran: number[] = [];
    const jobs = queue({ pollIntervalMs: 60_000 }, slow); // the clock would look again in a minute
    jobs.register(sent, async (job) => {
      ran.push(job.data.n);
    });
    await jobs.start();
    await jobs.send(sent, { n: 1 });
    await until('the worker is looking', () => looking > 0);
    await jobs.send(sent, { n: 2 });
    await until('both jobs ran within 5 s', () => ran.length === 2, 5000);
    expect(ran.sort()).toEqual([1, 2]);
  });

  it('stays quiet while idle: one look for due jobs per interval for all queues, not a poll per queue', async () => {
    // Statements the queue runs, counted on a store whose raw SQL goes through this wrapper.
    const statements: string[] = [];
    const counted: Store = {
      ...store,
      raw: {
        executeSql: (text, values) => {
          // pg-boss's own cron queue (`__pgboss__send-it`) is its business, not this queue's (its
          // creation comes here as a locked block with the name inlined, engine/jobs/boss-sql.ts).
          if (!String(values?.[0] ?? '').startsWith('__pgboss__') && !text.includes("'__pgboss__"))
            statements.push(text);
          return store.raw.executeSql(text, values);
        },
      },
    };
    const idle = { pollIntervalMs: 1000, leaseCheckSeconds: 15 }; // the app's lease checks
    const jobs = queue(idle, counted);
    for (const name of ['test.idle-a', 'test.idle-b', 'test.idle-c'])
      jobs.register(defineJob({ name, data: Note }), async () => {});
    await jobs.start();
    // A restart finds the queues as defined: nothing is written for them.
    await jobs.stop();
    const again = queue(idle, counted);
    for (const name of ['test.idle-a', 'test.idle-b', 'test.idle-c'])
      again.register(defineJob({ name, data: Note }), async () => {});
    statements.length = 0;
    await again.start();
    expect(statements.filter((s) => /create_queue|UPDATE \S+\.queue/.test(s))).toEqual([]);
    await sleep(500);
    statements.length = 0;
    await sleep(3000);
    // Three queues polled every second were nine statements in 3 s; the clock's look is three
    // (pg-boss's own timers add at most one or two).
    expect(statements.length).toBeLessThanOrEqual(5);
    expect(statements.filter((s) => s.includes('min(start_after)')).length).toBeGreaterThanOrEqual(2);
  });
});
