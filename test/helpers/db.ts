/**
 * Test databases: each test file gets its own migrated database on every dialect it runs on.
 * PGlite starts from the migrated dump made by test/global-setup.ts; PostgreSQL (when
 * TEST_DATABASE_URL is set) gets a fresh schema, dropped with pg-boss's beside it when the run ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createLogger } from '../../engine/logger.ts';
import { openStore, type Store, type StoreKind } from '../../engine/store/connect.ts';
import { migrateToLatest } from '../../engine/store/migrate.ts';

/** The dialects this machine can test: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: StoreKind[] = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];

/**
 * Test files whose point is what could differ between the dialects (full-text search
 * configurations, the job queue's locking, the auth tables, concurrent nodes): they run on both
 * whenever both are here.
 */
const ON_BOTH = new Set(['knowledge-retrieval', 'jobs', 'auth', 'conversations-nodes', 'turn-batching']);

/**
 * The dialects a test file runs on (pass `import.meta.url`): every file runs on PGlite when it is
 * the only one; with PostgreSQL too, the files in {@link ON_BOTH} run on both and each other file
 * on one of them, the same one every run (by its name), so about half the scenarios exercise each
 * dialect and the suite stays within CI's 30 minutes on two cores. `CHARLA_TEST_DIALECTS=all`
 * runs every file on both (before a release: `npm run test:all`).
 */
export function dialectsOf(testFile: string): StoreKind[] {
  if (DIALECTS.length === 1 || process.env.CHARLA_TEST_DIALECTS === 'all') return DIALECTS;
  const name = (testFile.split('/').pop() ?? '').replace(/\.test\.tsx?$/, '');
  if (ON_BOTH.has(name)) return DIALECTS;
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return [DIALECTS[hash % 2]!];
}

/**
 * A new PGlite data dir holding the migrated database (from the dump: a fresh initdb takes ~10 s),
 * for tests that close and reopen it or open it from another process. The caller removes it.
 */
export async function testDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-test-data-'));
  const store = await openStore({ dataDir, loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });
  await store.raw.executeSql('SELECT 1'); // the dump is unpacked and the instance up
  await store.close();
  return dataDir;
}

/** A migrated, empty database for one test file; `close` drops it. */
export async function testStore(kind: StoreKind): Promise<Store> {
  if (kind === 'pglite') {
    const dump = readFileSync(inject('pgliteDump'));
    return openStore({ memory: true, loadDataDir: new Blob([dump]) });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `${inject('pgSchemaPrefix')}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const store = await openStore({ databaseUrl: url, schema, poolSize: 5 });
  await migrateToLatest(store.db, undefined, schema);
  return {
    ...store,
    listen: store.listen,
    // The schema (and pg-boss's `<schema>_pgboss` beside it) is dropped when the whole run ends
    // (test/global-setup.ts): dropped here, it raced other files' migrations.
    close: store.close,
  };
}

/**
 * Two stores on one migrated database, as two processes would open it: on PostgreSQL each with its
 * own pools and LISTEN connection on one new schema; PGlite is one process, so the same store twice.
 */
export async function twoStores(kind: StoreKind): Promise<[Store, Store]> {
  if (kind === 'pglite') {
    const store = await testStore('pglite');
    return [store, store];
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `${inject('pgSchemaPrefix')}n_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const a = await openStore({ databaseUrl: url, schema, poolSize: 3, log });
  await migrateToLatest(a.db, undefined, schema);
  const b = await openStore({ databaseUrl: url, schema, poolSize: 3, log });
  return [a, b];
}
