/**
 * Test databases: each test file gets its own migrated database on every dialect it runs on.
 * PGlite starts from the migrated dump made by test/global-setup.ts; PostgreSQL (when
 * TEST_DATABASE_URL is set) gets a fresh schema, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore, type Store, type StoreKind } from '../../engine/store/connect.ts';
import { migrateToLatest } from '../../engine/store/migrate.ts';

/** The dialects this run tests: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: StoreKind[] = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];

/** A migrated, empty database for one test file; `close` drops it. */
export async function testStore(kind: StoreKind): Promise<Store> {
  if (kind === 'pglite') {
    const dump = readFileSync(inject('pgliteDump'));
    return openStore({ memory: true, loadDataDir: new Blob([dump]) });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const store = await openStore({ databaseUrl: url, schema, poolSize: 5 });
  await migrateToLatest(store.db, undefined, schema);
  return {
    ...store,
    listen: store.listen,
    async close() {
      await store.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
