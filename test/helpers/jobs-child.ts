/**
 * A second process for test/jobs.test.ts: opens the store (PGlite data dir, or a PostgreSQL
 * schema), runs a job queue with the `crash` definition, sends one job, and when its handler starts
 * prints `claimed <job id> <attempt>` and hangs, so the test can kill it with SIGKILL mid-job.
 *
 * `node bin/run-ts.js test/helpers/jobs-child.ts pglite <dataDir>`
 * `node bin/run-ts.js test/helpers/jobs-child.ts postgres <databaseUrl> <schema>`
 */
import { JobQueue } from '../../engine/jobs/index.ts';
import { createLogger } from '../../engine/logger.ts';
import { openStore } from '../../engine/store/connect.ts';
import { crashJob } from './jobs.ts';

const [kind, where, schema] = process.argv.slice(2);
const store =
  kind === 'pglite'
    ? await openStore({ dataDir: where! })
    : await openStore({ databaseUrl: where!, schema: schema!, poolSize: 2 });
const jobs = new JobQueue({ store, log: createLogger({ level: 'silent' }), pollIntervalMs: 100 });
jobs.register(crashJob, async (job) => {
  process.stdout.write(`claimed ${job.id} ${job.attempt}\n`);
  await new Promise(() => {}); // never finishes: the test kills this process
});
await jobs.start();
await jobs.send(crashJob, { step: 'killed mid-job' });
