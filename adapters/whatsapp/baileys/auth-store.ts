/**
 * A linked device's auth state in the database (issue 13), in place of Baileys' reference
 * `useMultiFileAuthState` (one JSON file per key, written without transactions, which is how
 * peers lose or corrupt sessions). Here:
 *
 * - every value (the creds and each signal key: pre-key, session, sender-key, sender-key-memory,
 *   app-state-sync-key, app-state-sync-version, lid-mapping, device-list, tctoken, identity-key) is
 *   serialised with Baileys' `BufferJSON` (Buffers and Uint8Arrays kept byte for byte) and sealed
 *   with AES-256-GCM, one row per (category, id) in `whatsapp_auth`;
 * - a `keys.set` is one transaction (Baileys commits its signal transactions as one `set`), and a
 *   null value deletes its row;
 * - every write is fenced by the session's lease: a process that lost the session writes nothing;
 * - writes are applied in order, and {@link SqlAuthState.flush} waits for them, so a socket
 *   reopened after "restart required" (515) reads the creds the pairing just wrote.
 */
import type { Logger } from '../../../engine/logger.ts';
import type { WaDb } from '../tables.ts';
import { readAuth, writeAuth } from './auth-queries.ts';
import type { AuthenticationState, BaileysLib, SignalDataTypeMap } from './lib.ts';

/** The category and id under which the creds are stored. */
const CREDS = { category: 'creds', id: '' } as const;

/** What {@link openSqlAuthState} returns. */
export interface SqlAuthState {
  state: AuthenticationState;
  /** Stores the creds as they are now (Baileys' `creds.update`). */
  saveCreds(): Promise<void>;
  /** Resolves when every write started so far is committed (or has failed). */
  flush(): Promise<void>;
}

/** Sealing of values at rest (engine/secrets.ts). */
interface Sealer {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/**
 * Opens a bot's auth state: the stored creds, or fresh ones (`initAuthCreds`) for a device
 * still to be linked.
 * @param fence the lease this process holds; writes throw LeaseLost without it.
 */
export async function openSqlAuthState(
  lib: Pick<BaileysLib, 'initAuthCreds' | 'BufferJSON' | 'proto'>,
  db: WaDb,
  chatbotId: string,
  sealer: Sealer,
  fence: { holder: string; leaseMs: number },
  log?: Logger,
): Promise<SqlAuthState> {
  const encode = (value: unknown) => sealer.encrypt(JSON.stringify(value, lib.BufferJSON.replacer));
  const decode = (sealed: string): unknown => JSON.parse(sealer.decrypt(sealed), lib.BufferJSON.reviver);

  const stored = (await readAuth(db, chatbotId, CREDS.category, [CREDS.id])).get(CREDS.id);
  const creds = stored ? (decode(stored) as AuthenticationState['creds']) : lib.initAuthCreds();

  let queue: Promise<void> = Promise.resolve();
  /** Runs writes one after another; a failed write is reported to its caller and the queue goes on. */
  const enqueue = (write: () => Promise<void>): Promise<void> => {
    const run = queue.then(write);
    queue = run.catch((err: unknown) => log?.warn({ err, chatbotId }, 'whatsapp auth write failed'));
    return run;
  };

  const keys: AuthenticationState['keys'] = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const rows = await readAuth(db, chatbotId, type, ids);
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const [id, sealed] of rows) {
        let value = decode(sealed);
        if (type === 'app-state-sync-key' && value)
          value = lib.proto.Message.AppStateSyncKeyData.fromObject(value as object);
        out[id] = value as SignalDataTypeMap[T];
      }
      return out;
    },
    async set(data) {
      const set: Array<{ category: string; id: string; value: string }> = [];
      const remove: Array<{ category: string; id: string }> = [];
      for (const category of Object.keys(data) as Array<keyof SignalDataTypeMap>) {
        for (const [id, value] of Object.entries(data[category] ?? {})) {
          if (value === null || value === undefined) remove.push({ category, id });
          else set.push({ category, id, value: encode(value) });
        }
      }
      if (set.length === 0 && remove.length === 0) return;
      await enqueue(() => writeAuth(db, chatbotId, fence, set, remove));
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () => enqueue(() => writeAuth(db, chatbotId, fence, [{ ...CREDS, value: encode(creds) }], [])),
    flush: () => queue,
  };
}
