/**
 * `charla backup` and `charla restore` (issue 26 §5) as an operator runs them: an install on
 * embedded PGlite with an owner, a bot, two files, a conversation and a scheduled reservation
 * reminder is backed up by the `charla` process, restored into a new empty PGlite data dir and
 * (with TEST_DATABASE_URL) into a new empty PostgreSQL database and S3 bucket; there the owner
 * signs in, the files are served byte for byte (from the bucket, on PostgreSQL), the conversation
 * is there, new rows get new ids, and the reminder is still scheduled. Restores that would lose or
 * mix data are refused, and a cut archive leaves the target empty.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../cli/app-services.ts';
import { BackupFormatError, restoreBackup } from '../engine/backup/index.ts';
import { createLogger } from '../engine/logger.ts';
import { Registry } from '../engine/registry/index.ts';
import { LocalStorage } from '../engine/storage/index.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { plugins } from '../plugins/index.ts';
import { reminderJob } from '../plugins/reservations/reminders.ts';
import { createTestApp } from './helpers/app.ts';
import { BIN, bundleLikeNpmStart, charlaEnv, runCharla } from './helpers/charla-process.ts';
import { testDataDir } from './helpers/db.ts';
import { ownerWithBot, uploadFile, withInject } from './helpers/owners.ts';

const SECRET = 'backup-test-secret-of-at-least-32-characters';
const quiet = createLogger({ level: 'silent' });
const EMAIL = 'lola@example.com';
const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));

/** The part of s3rver's API used here (the package ships no types). */
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => { run(): Promise<{ port: number }>; close(): Promise<void> };

/** What the source install held, as its owner and followers saw it. */
interface Source {
  botId: string;
  files: Map<string, Buffer>;
  messages: Array<{ id: number; text: string; reply_to: number | null }>;
}

/** Opens a restored install in this process (the app over `store`, files in `dataDir`). */
async function openInstall(store: Store, dataDir: string, env: Record<string, string> = {}) {
  return withInject(
    await createTestApp(store.kind, {
      store,
      env: { CHARLA_DATA_DIR: dataDir, CHARLA_SECRET: SECRET, ...env },
    }),
  );
}

/** Checks, as a user would, that `store` and `dataDir` (or the bucket of `env`) hold what `source` had. */
async function expectRestored(
  store: Store,
  dataDir: string,
  source: Source,
  env: Record<string, string> = {},
): Promise<void> {
  const app = await openInstall(store, dataDir, env);
  try {
    // The owner signs in with the password of the old install (better-auth's own sign-in: the HTTP
    // route adds only the rate limit, whose background prune would outlive this check).
    const signIn = await app.auth.api.signInEmail({ body: { email: EMAIL, password: 'contraseña-segura' } });
    expect(signIn.user.email).toBe(EMAIL);
    await expect(
      app.auth.api.signInEmail({ body: { email: EMAIL, password: 'otra-contraseña' } }),
    ).rejects.toThrow();
    const files = await app.store.db
      .selectFrom('chatbot_files')
      .select(['file_url'])
      .where('chatbot_id', '=', source.botId)
      .execute();
    expect(files.map((f) => f.file_url).sort()).toEqual([...source.files.keys()].sort());
    for (const [key, bytes] of source.files) {
      const served = await app.inject({ method: 'GET', url: `/files/${key}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes), `${key} is byte-identical`).toBe(true);
    }
    const messages = await app.store.db
      .selectFrom('conversation_messages')
      .select(['id', 'text', 'reply_to'])
      .where('chatbot_id', '=', source.botId)
      .orderBy('id')
      .execute();
    expect(
      messages.map((m) => ({ ...m, id: Number(m.id), reply_to: m.reply_to && Number(m.reply_to) })),
    ).toEqual(source.messages);
    // A new message gets an id after the restored ones (the identity sequence came back too).
    const added = await app.store.db
      .insertInto('conversation_messages')
      .values({
        chatbot_id: source.botId,
        channel: 'web',
        user_id: 'f-1',
        sender: 'user',
        text: '¿Y mañana?',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(added.id)).toBeGreaterThan(Math.max(...source.messages.map((m) => m.id)));
    // The reservation reminder is still scheduled, with its data and due time.
    const { rows } = await sql<{ data: unknown; state: string; start_after: Date }>`
      SELECT data, state, start_after FROM ${sql.id(jobsSchema(store), 'job')}
      WHERE name = ${reminderJob.name}`.execute(app.store.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'created', data: { reservationId: 'res-1', kind: '24h' } });
    expect(new Date(rows[0]!.start_after).getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);
  } finally {
    await app.close();
  }
}

/** pg-boss's schema beside the store's (engine/jobs `jobsSchemaOf`). */
function jobsSchema(store: Store): string {
  return store.schema === 'public' ? 'pgboss' : `${store.schema}_pgboss`;
}

/**
 * Drops a test database once nothing is connected to it (waiting up to `waitMs`); never by force,
 * which would cut a connection this process's pools may still hold (and which another run may
 * be using). A database still in use is left for the next run.
 */
async function dropUnused(client: pg.Client, name: string, waitMs = 3000): Promise<void> {
  for (const end = Date.now() + waitMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0 || Date.now() >= end) break;
  }
  await client.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => {});
}

describe('charla backup and charla restore', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'charla-backup-'));
    dirs.push(dir);
    return dir;
  };
  let archive: string;
  let source: Source;

  beforeAll(async () => {
    await bundleLikeNpmStart();
    const dataDir = await testDataDir();
    dirs.push(dataDir);
    // The install to back up, filled the way its owner and followers fill it.
    const store = await openStore({ dataDir });
    const app = await openInstall(store, dataDir);
    const owner = await ownerWithBot(app, EMAIL, { business_name: 'El Pato Pepe' });
    const files = new Map<string, Buffer>();
    for (const [name, keyword] of [
      ['carta-el-pato-pepe.pdf', 'carta'],
      ['local-el-pato-pepe.jpg', 'local'],
    ] as const) {
      const file = await uploadFile(app, owner.token, owner.botId, name, asset(name), keyword);
      const { file_url } = await app.store.db
        .selectFrom('chatbot_files')
        .select('file_url')
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      const served = await app.inject({ method: 'GET', url: `/files/${file_url}` });
      expect(served.statusCode).toBe(200);
      files.set(file_url, served.rawPayload);
    }
    const messages: Source['messages'] = [];
    for (const text of ['Hola, ¿abrís el domingo?', '¿Tenéis menú del día?']) {
      const question = await app.store.db
        .insertInto('conversation_messages')
        .values({ chatbot_id: owner.botId, channel: 'web', user_id: 'f-1', sender: 'user', text })
        .returning('id')
        .executeTakeFirstOrThrow();
      const answer = await app.store.db
        .insertInto('conversation_messages')
        .values({
          chatbot_id: owner.botId,
          channel: 'web',
          user_id: 'f-1',
          sender: 'bot',
          text: `Sí: ${text}`,
          reply_to: question.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      messages.push({ id: Number(question.id), text, reply_to: null });
      messages.push({ id: Number(answer.id), text: `Sí: ${text}`, reply_to: Number(question.id) });
    }
    await startJobs(app.jobs, app.registry, app.log);
    const startsAt = new Date(Date.now() + 30 * 86_400_000);
    await app.jobs.send(
      reminderJob,
      { reservationId: 'res-1', kind: '24h', startsAt: startsAt.toISOString() },
      { runAt: new Date(startsAt.getTime() - 86_400_000), key: 'res-1:24h' },
    );
    await app.close();
    await store.close();
    source = { botId: owner.botId, files, messages };

    archive = join(newDir(), 'charla.tar.gz');
    const made = runCharla(
      ['backup', '--out', archive, '--json'],
      charlaEnv({ CHARLA_DATA_DIR: dataDir, CHARLA_SECRET: SECRET }),
    );
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ file: archive, database: 'pglite', objects: 2 });
  }, 120_000);

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('restores into an empty PGlite data dir; refuses a target that is not empty or lacks the secret, and a cut archive leaves it empty', async () => {
    const target = await testDataDir(); // migrated and empty, as `charla migrate` leaves one
    dirs.push(target);
    // Without the secret the archive was made with, nothing is touched. A cut archive (the copy
    // broke off inside the files) fails after the rows went in: the rows are rolled back and the
    // files already stored removed, so the target is still empty.
    const whole = readFileSync(archive);
    const cut = await openStore({ dataDir: target });
    const storage = new LocalStorage(join(target, 'storage', 'chatbot-files'));
    const deps = { store: cut, storage, plugins: new Registry([], plugins, quiet).migrations() };
    try {
      await expect(restoreBackup(deps, Readable.from([whole]))).rejects.toThrow(/CHARLA_SECRET/);
      await expect(
        restoreBackup(
          { ...deps, secret: SECRET },
          Readable.from([whole.subarray(0, Math.floor(whole.length * 0.9))]),
        ),
      ).rejects.toThrow(BackupFormatError);
      // (the rows of the cut archive had gone in before the files broke off)
      expect(await cut.db.selectFrom('owners').select('id').execute()).toEqual([]);
      const left: string[] = [];
      for await (const { key } of storage.list()) left.push(key);
      expect(left).toEqual([]);
    } finally {
      await cut.close();
    }

    const env = charlaEnv({ CHARLA_DATA_DIR: target, CHARLA_SECRET: SECRET });
    const restored = runCharla(['restore', archive, '--json'], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ database: 'pglite', madeOn: 'pglite', objects: 2 });

    const again = runCharla(['restore', archive], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already has 1 owner');

    const store = await openStore({ dataDir: target });
    try {
      await expectRestored(store, target, source);
    } finally {
      await store.close();
    }
  }, 90_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'restores a PGlite backup into a new, empty PostgreSQL database and S3 bucket',
    async () => {
      const admin = new URL(process.env.TEST_DATABASE_URL!);
      const name = `charla_backup_${randomBytes(5).toString('hex')}`;
      const client = new pg.Client({ connectionString: admin.href });
      await client.connect();
      // Databases earlier runs could not drop (a connection was still closing) go now.
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'charla\\_backup\\_%'`,
      );
      for (const { datname } of rows) await dropUnused(client, datname, 0);
      await client.query(`CREATE DATABASE ${name}`);
      const url = new URL(admin.href);
      url.pathname = `/${name}`;
      const dataDir = newDir();
      // The files move into a bucket too (an S3-compatible server, s3rver).
      const s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: join(dataDir, 's3rver'),
        configureBuckets: [{ name: 'restored' }],
      });
      const { port } = await s3.run();
      const s3Env = {
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'restored',
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      };
      let store: Store | undefined;
      try {
        // Asynchronously: s3rver answers from this process, which a synchronous spawn would block.
        const restored = await promisify(execFile)(process.execPath, [BIN, 'restore', archive, '--json'], {
          env: charlaEnv({
            CHARLA_DATA_DIR: dataDir,
            CHARLA_SECRET: SECRET,
            DATABASE_URL: url.href,
            ...s3Env,
          }),
          timeout: 60_000,
        });
        expect(JSON.parse(restored.stdout)).toMatchObject({
          database: 'postgres',
          madeOn: 'pglite',
          objects: 2,
        });
        store = await openStore({ databaseUrl: url.href, poolSize: 3 });
        await expectRestored(store, dataDir, source, s3Env);
      } finally {
        await store?.close();
        await s3.close();
        await dropUnused(client, name);
        await client.end();
      }
    },
    90_000,
  );
});
