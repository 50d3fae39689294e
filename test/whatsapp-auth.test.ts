/**
 * A linked device's auth state in the database (issue 13), on PGlite and PostgreSQL: Baileys'
 * `initAuthCreds()` and every signal key type round-trip byte for byte through `BufferJSON`
 * (Buffers stay Buffers), a null deletes, values are sealed at rest, and a process that does not
 * hold the session's lease cannot write anything.
 */
import { randomUUID } from 'node:crypto';
import { BufferJSON, initAuthCreds, proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlAuthState } from '../adapters/whatsapp/baileys/auth-store.ts';
import { acquireLease } from '../adapters/whatsapp/queries.ts';
import { LeaseLost, type WaDb, waDb } from '../adapters/whatsapp/tables.ts';
import { SecretBox } from '../engine/secrets.ts';
import type { Store } from '../engine/store/connect.ts';
import { dialectsOf, testStore } from './helpers/db.ts';

const lib = { initAuthCreds, BufferJSON, proto };
const sealer = new SecretBox('auth-store-test-secret-of-32-characters');
const json = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);

/** One value of every key type Baileys 7 stores (SignalDataTypeMap). */
function everyKeyType() {
  const bytes = (n: number, seed: number) =>
    Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256));
  return {
    'pre-key': {
      '1': { public: bytes(33, 1), private: bytes(32, 2) },
      '2': { public: bytes(33, 3), private: bytes(32, 4) },
    },
    session: { '34600111222.0': bytes(120, 5), '1234567890@lid.1': new Uint8Array(bytes(64, 6)) },
    'sender-key': { 'grupo@g.us::34600111222::0': bytes(80, 7) },
    'sender-key-memory': { 'grupo@g.us': { '34600111222:0@s.whatsapp.net': true } },
    'app-state-sync-key': {
      AAAAAB: proto.Message.AppStateSyncKeyData.fromObject({
        keyData: bytes(32, 8),
        fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 2] },
        timestamp: 1_700_000_000_000,
      }),
    },
    'app-state-sync-version': {
      regular_high: {
        version: 12,
        hash: bytes(128, 9),
        indexValueMap: { 'aW5kZXg=': { valueMac: bytes(32, 10) } },
      },
    },
    'lid-mapping': { '34600111222': '1234567890', '1234567890_reverse': '34600111222' },
    'device-list': { '34600111222': ['0', '12', '27'] },
    tctoken: { '34600111222@s.whatsapp.net': { token: bytes(24, 11), timestamp: '1700000000' } },
    'identity-key': { '34600111222.0': bytes(33, 12) },
  } as const;
}

describe.each(dialectsOf(import.meta.url))('the SQL auth state on %s', (kind) => {
  let store: Store;
  let db: WaDb;
  const chatbotId = `bot-${randomUUID()}`;
  const holder = 'process-a';
  const fence = { holder, leaseMs: 60_000 };

  beforeAll(async () => {
    store = await testStore(kind);
    db = waDb(store.db);
    await store.db.insertInto('owners').values({ id: 'owner-auth', email: 'auth@example.com' }).execute();
    await store.db
      .insertInto('chatbots')
      .values({ id: chatbotId, user_id: 'owner-auth', business_name: 'Auth', business_description: 'x' })
      .execute();
    await db
      .insertInto('whatsapp_connections')
      .values({ chatbot_id: chatbotId, backend: 'baileys', status: 'linking' })
      .execute();
    expect(await acquireLease(db, chatbotId, holder, 60_000)).toBe(true);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('round-trips initAuthCreds() and every key type, including deletions', async () => {
    const first = await openSqlAuthState(lib, db, chatbotId, sealer, fence);
    const creds = first.state.creds;
    // An empty store gives fresh creds (a device still to be linked).
    expect(creds.me).toBeUndefined();
    expect(creds.registered).toBe(false);
    creds.me = { id: '34600111222:12@s.whatsapp.net', lid: '1234567890:12@lid', name: 'Negocio' };
    await first.saveCreds();
    const data = everyKeyType();
    await first.state.keys.set(data as never);
    await first.flush();

    const again = await openSqlAuthState(lib, db, chatbotId, sealer, fence);
    expect(json(again.state.creds)).toBe(json(creds));
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(
      Buffer.from(again.state.creds.signedIdentityKey.public).equals(
        Buffer.from(creds.signedIdentityKey.public),
      ),
    ).toBe(true);
    for (const [type, values] of Object.entries(data)) {
      const got = (await again.state.keys.get(type as never, Object.keys(values))) as Record<string, unknown>;
      for (const [id, value] of Object.entries(values))
        expect(json(got[id]), `${type} ${id}`).toBe(json(value));
    }
    const syncKey = (await again.state.keys.get('app-state-sync-key', ['AAAAAB'])).AAAAAB;
    expect(syncKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    const session = (await again.state.keys.get('session', ['1234567890@lid.1']))['1234567890@lid.1'];
    expect(Buffer.isBuffer(session)).toBe(true);

    // A null deletes: the key is gone, its neighbours stay.
    await again.state.keys.set({ 'pre-key': { '1': null }, session: { '34600111222.0': null } });
    const left = await again.state.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(left)).toEqual(['2']);
    expect(await again.state.keys.get('session', ['34600111222.0'])).toEqual({});

    // Sealed at rest: no key's bytes appear in the stored rows.
    const rows = await db
      .selectFrom('whatsapp_auth')
      .select(['category', 'value'])
      .where('chatbot_id', '=', chatbotId)
      .execute();
    expect(rows.map((r) => r.category).sort()).toContain('creds');
    const plain = Buffer.from(creds.noiseKey.private).toString('base64');
    expect(rows.some((r) => r.value.includes(plain))).toBe(false);
  });

  it('writes nothing for a process that does not hold the lease', async () => {
    const other = await openSqlAuthState(lib, db, chatbotId, sealer, {
      holder: 'process-b',
      leaseMs: 60_000,
    });
    await expect(other.state.keys.set({ 'lid-mapping': { '999': '888' } })).rejects.toBeInstanceOf(LeaseLost);
    await expect(other.saveCreds()).rejects.toBeInstanceOf(LeaseLost);
    expect(await other.state.keys.get('lid-mapping', ['999'])).toEqual({});
  });
});
