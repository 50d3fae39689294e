/**
 * Prepared statements on PostgreSQL (engine/store/pg-connections.ts `prepareStatements`, issue 25):
 * a query with parameters is prepared once per connection and run again by name; a migration made by
 * another process that changes a table under a prepared `SELECT *` (a rolling upgrade) does not
 * break the running process: it prepares again and reads the new shape; `CHARLA_PG_PREPARE=off`
 * turns them off. PostgreSQL only: skipped when TEST_DATABASE_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../engine/logger.ts';
import { openStore, type Store } from '../engine/store/connect.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const log = createLogger({ level: 'silent' });

describe.skipIf(!DATABASE_URL)('prepared statements on PostgreSQL', () => {
  // Under the run's prefix: dropped with the others when every file is done (test/global-setup.ts), not
  // here, where a drop while another file's migrator introspects every schema failed that migration.
  const schema = `${inject('pgSchemaPrefix')}prep_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  const stores: Store[] = [];
  const open = async (env: Record<string, string> = {}) => {
    const store = await openStore({ databaseUrl: DATABASE_URL!, schema, poolSize: 1, log, env });
    stores.push(store);
    return store;
  };
  /** The names this store's one connection has prepared (pg_prepared_statements is per session). */
  const prepared = async (store: Store) =>
    (
      await sql<{ name: string }>`select name from pg_prepared_statements where name like 'charla%'`.execute(
        store.db,
      )
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query(`create table ${schema}.notes (id int primary key, body text)`);
    await admin.query(`insert into ${schema}.notes values (1, 'uno'), (2, 'dos')`);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await admin.end();
  });

  it('prepares a query with parameters once and runs it again by name', async () => {
    const store = await open();
    const read = (id: number) =>
      sql<{ body: string }>`select * from notes where id = ${id}`.execute(store.db);
    expect((await read(1)).rows[0]?.body).toBe('uno');
    expect((await read(2)).rows[0]?.body).toBe('dos');
    const names = await prepared(store);
    expect(names).toHaveLength(1);
    expect((await read(1)).rows[0]?.body).toBe('uno');
    expect(await prepared(store)).toEqual(names);
  });

  it('reads the new shape after another process adds a column under a prepared SELECT *', async () => {
    const store = await open();
    const read = () => sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(store.db);
    expect(Object.keys((await read()).rows[0]!)).toEqual(['id', 'body']);
    await admin.query(`alter table ${schema}.notes add column mood text default 'bien'`);
    expect((await read()).rows[0]).toEqual({ id: 1, body: 'uno', mood: 'bien' });
    expect((await read()).rows[0]).toEqual({ id: 1, body: 'uno', mood: 'bien' });
  });

  it('prepares nothing with CHARLA_PG_PREPARE=off', async () => {
    const store = await open({ CHARLA_PG_PREPARE: 'off' });
    await sql`select * from notes where id = ${2}`.execute(store.db);
    expect(await prepared(store)).toEqual([]);
  });
});
