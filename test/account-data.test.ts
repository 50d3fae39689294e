/**
 * Issue 26 §5, the owner's data: `GET /api/account/export` gives a ZIP with everything of the owner
 * (their bots, files byte for byte, conversations, bookings, billing) and no secret, and
 * `POST /api/account/delete` with the current password deletes every row of the owner and their
 * bots in every table, their stored objects and their sessions, leaving another owner untouched.
 * On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDb } from '../plugins/billing/queries.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, enableWeb, ownerWithBot, uploadFile, withInject } from './helpers/owners.ts';
import { type FakeStripe, startFakeStripe } from './servers/stripe.ts';

const PDF = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
const JPG = readFileSync(new URL('../assets/demo/local-el-pato-pepe.jpg', import.meta.url));
const PASSWORD = 'contraseña-segura';

/**
 * The entries of a ZIP, read from its central directory (APPNOTE 4.3.12, 4.3.7): stored or
 * deflated, as yazl writes them. Independent of the library that wrote it.
 */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

interface ExportJson {
  format: string;
  account: { owner: { id: string; email: string }; signInMethods: Array<{ provider_id: string }> };
  bots: Array<{
    id: string;
    business_name: string;
    files: Array<{ id: string; file_name: string; export_path: string | null; file_url: string }>;
    followers: Array<{ external_id: string }>;
    messages: Array<{ text: string; sender: string }>;
  }>;
  plugins: {
    reservations: { bookings: Array<{ customer_name: string; chatbot_ref: string }> };
    billing: { grants: unknown[] };
    broadcasts: { broadcasts: unknown[] };
    conversations: { states: unknown[]; phones: unknown[] };
  };
}

describe.each(dialectsOf(import.meta.url))('the owner’s data (%s)', (kind) => {
  let app: App;
  let stripe: FakeStripe;
  const SUBSCRIPTION = 'sub_test_account_data';
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  let a: { id: string; token: string; bots: string[] };
  let b: { id: string; token: string; botId: string };
  /** Every table and column that names an owner or a bot, from the database's own catalogue. */
  let columns: Array<{ table_name: string; column_name: string }>;

  /** Rows naming these ids, per `table.column`, in every table of the schema. */
  async function rowsNaming(ids: string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const { table_name, column_name } of columns) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table_name)}
        WHERE ${sql.ref(column_name)}::text IN (${sql.join(ids)})`.execute(app.store.db);
      out[`${table_name}.${column_name}`] = Number(rows[0]!.n);
    }
    return out;
  }

  /** A web follower writes to a bot (the offline responder answers). */
  async function followerWrites(botId: string, visitor: string, text: string) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}`,
      payload: { userMessage: text, visitorId: visitor, username: visitor, channel: 'web' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  beforeAll(async () => {
    stripe = await startFakeStripe();
    app = await withInject(
      await createTestApp(kind, {
        env: {
          STRIPE_SECRET_KEY: stripe.secretKey,
          STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
          STRIPE_API_URL: stripe.url,
        },
      }),
    );
    const owner = await ownerWithBot(app, 'ana@example.com', { business_name: 'Bar Uno' });
    const second = await app.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: bearer(owner.token),
      payload: { business_name: 'Peluquería Dos', business_description: 'Cortes de pelo.' },
    });
    expect(second.statusCode).toBe(200);
    a = { id: owner.id, token: owner.token, bots: [owner.botId, second.json().id] };
    const other = await ownerWithBot(app, 'bruno@example.com', { business_name: 'Taller Tres' });
    b = { id: other.id, token: other.token, botId: other.botId };

    await uploadFile(app, a.token, a.bots[0]!, 'carta.pdf', PDF, 'carta');
    await uploadFile(app, a.token, a.bots[1]!, 'local.jpg', JPG, 'local');
    await uploadFile(app, b.token, b.botId, 'taller.pdf', PDF, 'taller');
    // A renewing monthly plan at Stripe.
    const now = Math.floor(Date.now() / 1000);
    stripe.subscriptions.set(SUBSCRIPTION, {
      id: SUBSCRIPTION,
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      metadata: {},
      customer: 'cus_test_account_data',
      items: { object: 'list', data: [] },
      created: now,
    });
    await billingDb(app.store.db)
      .insertInto('billing_subscriptions')
      .values({
        id: SUBSCRIPTION,
        user_id: a.id,
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: null,
        event_created: new Date(),
      })
      .execute();
    // A channel credential, sealed as the adapters store it: it must never leave the database.
    await app.store.db
      .updateTable('chatbots')
      .set({ telegram_token: app.secrets.encrypt('123456:TELEGRAM-SECRET-TOKEN') })
      .where('id', '=', a.bots[1]!)
      .execute();
    for (const id of [...a.bots, b.botId])
      await enableWeb(app.inject, id === b.botId ? b.token : a.token, id);
    await followerWrites(a.bots[0]!, 'visitante-uno', '¿Abrís hoy por la noche?');
    await followerWrites(a.bots[1]!, 'visitante-dos', '¿Cuánto cuesta un corte?');
    await followerWrites(b.botId, 'visitante-tres', '¿Arregláis motos?');
    // A long conversation: the export reads it page by page (500 rows a page).
    await app.store.db
      .insertInto('conversation_messages')
      .values(
        Array.from({ length: 1100 }, (_, i) => ({
          chatbot_id: a.bots[1]!,
          channel: 'web',
          user_id: 'visitante-dos',
          sender: 'user' as const,
          text: `mensaje ${i}`,
        })),
      )
      .execute();

    // A booking made by hand on the first bot's calendar (the first weekday with a free slot).
    let slotId: string | undefined;
    for (let d = 1; d <= 10 && !slotId; d++) {
      const date = new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
      const slots = await app.inject({
        method: 'GET',
        url: `/api/reservations/${a.bots[0]}/slots?date=${date}`,
        headers: bearer(a.token),
      });
      expect(slots.statusCode, slots.body).toBe(200);
      slotId = (slots.json() as { slots: Array<{ id: string; free: number }> }).slots.find(
        (s) => s.free > 0,
      )?.id;
    }
    const booked = await app.inject({
      method: 'POST',
      url: `/api/reservations/${a.bots[0]}`,
      headers: bearer(a.token),
      payload: { slotId, customer_name: 'Lucía Reserva', phone: '+34600111222' },
    });
    expect(booked.statusCode, booked.body).toBe(200);

    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND column_name IN ('chatbot_id', 'chatbot_ref', 'user_id', 'owner_id', 'ialanding_id')
      ORDER BY table_name, column_name`.execute(app.store.db);
    columns = [
      ...rows,
      { table_name: 'owners', column_name: 'id' },
      { table_name: 'chatbots', column_name: 'id' },
      { table_name: 'auth_verifications', column_name: 'value' },
    ];
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  it('exports everything of the owner as a ZIP: bots, messages, bookings and files byte for byte, no secret', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/account/export', headers: bearer(a.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="charla-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const zip = res.rawPayload;
    if (existsSync('/usr/bin/unzip')) {
      // A second, independent reader agrees the archive is sound.
      const dir = mkdtempSync(join(tmpdir(), 'charla-export-'));
      writeFileSync(join(dir, 'export.zip'), zip);
      expect(execFileSync('/usr/bin/unzip', ['-t', join(dir, 'export.zip')]).toString()).toMatch(/No errors/);
      rmSync(dir, { recursive: true, force: true });
    }
    const entries = readZip(zip);
    const text = entries.get('charla-export.json')!.toString('utf8');
    const data = JSON.parse(text) as ExportJson;
    expect(data.format).toBe('charla-export');
    expect(data.account.owner).toMatchObject({ id: a.id, email: 'ana@example.com' });
    expect(data.account.signInMethods.map((m) => m.provider_id)).toEqual(['credential']);
    expect(data.bots.map((bot) => bot.business_name)).toEqual(['Bar Uno', 'Peluquería Dos']);
    expect(data.bots[0]!.messages.map((m) => m.text)).toContain('¿Abrís hoy por la noche?');
    expect(data.bots[0]!.messages.some((m) => m.sender === 'bot')).toBe(true);
    const long = data.bots[1]!.messages.map((m) => m.text);
    expect(long).toContain('¿Cuánto cuesta un corte?');
    expect(long.filter((t) => t.startsWith('mensaje '))).toEqual(
      Array.from({ length: 1100 }, (_, i) => `mensaje ${i}`),
    );
    expect(data.bots[1]!.followers.map((f) => f.external_id)).toEqual(['visitante-dos']);
    expect(data.plugins.reservations.bookings).toEqual([
      expect.objectContaining({ customer_name: 'Lucía Reserva', chatbot_ref: a.bots[0] }),
    ]);
    expect(Array.isArray(data.plugins.billing.grants)).toBe(true);
    expect(data.plugins.broadcasts.broadcasts).toEqual([]);
    expect(data.plugins.conversations).toEqual({ states: expect.any(Array), phones: [] });
    // Nothing of the other owner.
    expect(text).not.toContain(b.botId);
    expect(text).not.toContain('¿Arregláis motos?');

    // Every stored file, byte for byte as stored, where the JSON says.
    const files = data.bots.flatMap((bot) => bot.files);
    expect(files.map((f) => f.export_path)).toEqual([
      `files/${a.bots[0]}/carta.pdf`,
      expect.stringMatching(new RegExp(`^files/${a.bots[1]}/local\\.`)),
    ]);
    for (const file of files) {
      const object = await app.storage.get(file.file_url);
      const stored = Buffer.concat(await object!.stream.toArray());
      expect(entries.get(file.export_path!)!.equals(stored)).toBe(true);
    }
    expect(entries.get(`files/${a.bots[0]}/carta.pdf`)!.equals(PDF)).toBe(true);
    expect([...entries.keys()].sort()).toEqual(
      ['charla-export.json', ...files.map((f) => f.export_path)].sort(),
    );

    // No password hash, no session token (raw or stored), no channel credential.
    const hash = await app.store.db
      .selectFrom('auth_accounts')
      .select('password')
      .where('user_id', '=', a.id)
      .executeTakeFirstOrThrow();
    const sessions = await app.store.db
      .selectFrom('auth_sessions')
      .select('token')
      .where('user_id', '=', a.id)
      .execute();
    for (const secret of [
      hash.password!,
      a.token,
      ...sessions.map((s) => s.token),
      'TELEGRAM-SECRET-TOKEN',
      PASSWORD,
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(password|token|telegram_token|meta_token|access_token)"/);
  });

  it('documents both routes in the OpenAPI document', async () => {
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = (docs.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths['/api/account/export'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/api/account/delete'] ?? {})).toEqual(['post']);
  });

  it('limits exports to a few an hour per owner', async () => {
    // One export done above; two more are allowed, the fourth is refused with a code to translate.
    for (let i = 0; i < 2; i++) {
      const ok = await app.inject({ method: 'GET', url: '/api/account/export', headers: bearer(a.token) });
      expect(ok.statusCode).toBe(200);
    }
    const refused = await app.inject({ method: 'GET', url: '/api/account/export', headers: bearer(a.token) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'tooMany' });
    expect(refused.headers['retry-after']).toBeDefined();
    const anonymous = await app.inject({ method: 'GET', url: '/api/account/export' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a deletion with a wrong password, from another site, or without a session, and deletes nothing', async () => {
    const before = await rowsNaming([a.id, ...a.bots]);
    expect(before['chatbots.id']).toBe(2);
    expect(before['conversation_messages.chatbot_id']).toBeGreaterThan(0);
    expect(before['reservations_v1.chatbot_ref']).toBe(1);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: bearer(a.token),
      payload: { password: 'otra-contraseña' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: 'La contraseña no es correcta.', code: 'wrongPassword' });
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { ...bearer(a.token), cookie: 'charla.session_token=x', origin: 'https://evil.example' },
      payload: { password: PASSWORD },
    });
    expect(crossSite.statusCode).toBe(403);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      payload: { password: PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: bearer(a.token),
      payload: { password: 42 },
    });
    expect(malformed.statusCode).toBe(400);
    // Stripe refusing to end the renewal stops the deletion: the owner is not charged for a deleted account.
    stripe.failNext(`/v1/subscriptions/${SUBSCRIPTION}`, 400, {
      type: 'invalid_request_error',
      message: 'Stripe says no',
    });
    const stripeDown = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: bearer(a.token),
      payload: { password: PASSWORD },
    });
    expect(stripeDown.statusCode).toBe(502);
    expect(stripe.subscriptions.get(SUBSCRIPTION)!.status).toBe('active');
    expect(await rowsNaming([a.id, ...a.bots])).toEqual(before);
    const mine = await app.inject({ method: 'GET', url: '/api/my-chatbot', headers: bearer(a.token) });
    expect(mine.statusCode).toBe(200);
  });

  it('deletes the account with the right password: every row, every stored file, every session; the other owner keeps theirs', async () => {
    const keysOf = async (ownerId: string) => {
      const keys: string[] = [];
      for await (const o of app.storage.list()) if (o.key.startsWith(`${ownerId}/`)) keys.push(o.key);
      return keys;
    };
    expect(await keysOf(a.id)).toHaveLength(2);
    const otherBefore = await rowsNaming([b.id, b.botId]);
    const otherKeys = await keysOf(b.id);
    expect(otherKeys).toHaveLength(1);
    // A second session of the owner (another device) ends too.
    const otherDevice = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'ana@example.com', password: PASSWORD },
    });
    expect(otherDevice.statusCode, otherDevice.body).toBe(200);
    const cookie = otherDevice.headers['set-cookie'];

    const res = await app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: bearer(a.token),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: true, bots: 2, files: 2 });
    expect(stripe.subscriptions.get(SUBSCRIPTION)!.status).toBe('canceled');
    expect(stripe.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/v1/subscriptions/${SUBSCRIPTION}`,
      `/v1/subscriptions/${SUBSCRIPTION}`,
    ]);
    expect(String(res.headers['set-cookie'])).toMatch(/session_token=;/);

    const left = await rowsNaming([a.id, ...a.bots]);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);
    // The catalogue covered the plugins' tables and the channels' too.
    expect(Object.keys(left)).toEqual(
      expect.arrayContaining([
        'reservations_v1.chatbot_ref',
        'billing_grants.user_id',
        'conversation_messages.chatbot_id',
        'followers.chatbot_id',
        'auth_sessions.user_id',
        'channel_updates.chatbot_id',
        'whatsapp_connections.chatbot_id',
      ]),
    );
    expect(await keysOf(a.id)).toEqual([]);
    for (const headers of [bearer(a.token), { cookie: String(cookie).split(';')[0]! }]) {
      const after = await app.inject({ method: 'GET', url: '/api/my-chatbot', headers });
      expect(after.statusCode).toBe(401);
    }
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'ana@example.com', password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);

    // The other owner: the same rows, the same stored file, still signed in, the bot still answers.
    expect(await rowsNaming([b.id, b.botId])).toEqual(otherBefore);
    expect(await keysOf(b.id)).toEqual(otherKeys);
    const theirs = await app.inject({ method: 'GET', url: '/api/my-chatbot', headers: bearer(b.token) });
    expect(theirs.json()).toMatchObject({ bot: { id: b.botId } });
    await followerWrites(b.botId, 'visitante-tres', '¿Y coches?');
  });
});
