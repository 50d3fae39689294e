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

/** The dialects this run tests: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: StoreKind[] = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];

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
