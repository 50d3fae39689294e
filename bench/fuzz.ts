/**
 * `npm run fuzz` (issue 24, the project's own fuzz check): 10,000 malformed requests to every route
 * of the route table over real HTTP (test/helpers/fuzz.ts), against Charla composed as `charla
 * serve` composes it, on a fresh database. Prints the status table (route × 2xx/3xx/4xx/5xx/no
 * answer), the statuses, the rows by kind of request and the first example of each 5xx with the
 * error the server logged; exits 1 on any 5xx outside the contract list, a request left without an
 * answer, an uncaught error or a server that stopped answering.
 *
 * Settings (environment):
 * - FUZZ_REQUESTS (10000): requests to send.
 * - FUZZ_SEED (1): the seed; the same seed sends the same requests (ids of the seeded data aside).
 * - FUZZ_DB (`pglite`): `pglite` (in memory) or `postgres`, or both comma-separated.
 * - FUZZ_DATABASE_URL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test): PostgreSQL
 *   for FUZZ_DB=postgres; the run uses a schema of its own and drops it.
 * - FUZZ_CONCURRENCY (4): requests in flight.
 * - FUZZ_ONLY (e.g. `123,4567`): send only these request numbers (a failure's `#n`), to replay it.
 * - FUZZ_ROUTES (a regular expression): only routes whose `METHOD /path` matches.
 * - FUZZ_LOG (unset): a file to write the report to as well.
 * - FUZZ_DEBUG_SLOW (unset): print every request slower than this many ms to stderr, as it ends.
 *
 * Rate limits are off in the fuzzed app (CHARLA_RATE_LIMITS=off), so requests reach validation.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { openStore, type Store } from '../engine/store/connect.ts';
import { createFuzzApp, formatReport, runFuzz } from '../test/helpers/fuzz.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const DBS = (process.env.FUZZ_DB ?? 'pglite').split(',').map((s) => s.trim());
const PG_URL =
  process.env.FUZZ_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const ONLY = process.env.FUZZ_ONLY
  ? process.env.FUZZ_ONLY.split(',').map((n) => Number(n.trim()))
  : undefined;
const ROUTES = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : undefined;

/** A store for one run: PGlite in memory, or a fresh schema of PostgreSQL dropped by `drop`. */
async function storeFor(db: string): Promise<{ store: Store; label: string; drop: () => Promise<void> }> {
  if (db === 'pglite')
    return { store: await openStore({ memory: true }), label: 'PGlite (in memory)', drop: async () => {} };
  if (db !== 'postgres') throw new Error(`FUZZ_DB: "${db}" is neither pglite nor postgres`);
  const schema = `fuzz_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    store: await openStore({ databaseUrl: PG_URL, schema }),
    label: `PostgreSQL (${new URL(PG_URL).host}, schema ${schema})`,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

let failed = false;
const out: string[] = [];
for (const db of DBS) {
  const { store, label, drop } = await storeFor(db);
  process.stderr.write(`fuzz: ${label}, seed ${SEED}, ${ONLY?.length ?? REQUESTS} requests…\n`);
  const fuzz = await createFuzzApp({ store, migrate: true });
  try {
    const report = await runFuzz({
      fuzz,
      seed: SEED,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      ...(ONLY ? { only: ONLY } : {}),
      ...(ROUTES ? { routeFilter: ROUTES } : {}),
      onProgress: (sent, planned) => process.stderr.write(`  · ${sent}/${planned}\n`),
    });
    const text = formatReport(report, label);
    out.push(text);
    process.stdout.write(`${text}\n\n`);
    if (report.failures.length > 0) failed = true;
  } finally {
    await fuzz.close();
    await drop();
  }
}
if (process.env.FUZZ_LOG) writeFileSync(process.env.FUZZ_LOG, `${out.join('\n\n')}\n`);
process.stdout.write(failed ? 'fuzz: FAILED (5xx, no answer, uncaught error or crash)\n' : 'fuzz: no 5xx\n');
process.exit(failed ? 1 : 0);
