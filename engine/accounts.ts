/**
 * Deleting an owner's account (issue 26 §5): the one function `POST /api/account/delete` and
 * `charla owners delete` both call. It asks the plugins first (`ownerData.beforeDelete`), stops
 * the bots' channel connections held by this process (Telegram's webhook is deleted, a WhatsApp
 * linked device logs out) and tells the other nodes to drop theirs, deletes every row of the
 * owner and their bots (one transaction; the tables cascade from `owners` and `chatbots`, which
 * ends every session too), then removes their stored files (the plugins' objects too, issue 27 §3).
 */
import type { Kysely } from 'kysely';
import type { Auth } from './auth/index.ts';
import { CHANNELS_CHANNEL } from './channels/supervisor.ts';
import { BOTS_CHANNEL } from './conversation/cache.ts';
import type { Logger } from './logger.ts';
import type { Registry } from './registry/index.ts';
import type { Storage } from './storage/index.ts';
import type { Database } from './store/database.ts';
import { deleteOwnerRows } from './store/queries/accounts.ts';
import { chatbotIdsOfOwner } from './store/queries/chatbots.ts';
import { listOwnerFileKeys } from './store/queries/files.ts';
import { notifyMany } from './store/queries/messages.ts';

/** What {@link deleteAccount} needs. */
export interface AccountDeps {
  db: Kysely<Database>;
  storage: Storage;
  /** The adapters (their connections) and the plugins' owner-data hooks. */
  registry: Pick<Registry, 'adapters' | 'beforeOwnerDelete'> & Partial<Pick<Registry, 'ownerStoredObjects'>>;
  log: Logger;
}

/** What a deletion removed. */
export interface DeletedAccount {
  bots: number;
  /** Stored objects removed (files kept at an http address have none). */
  files: number;
}

/**
 * Deletes an owner and everything of theirs (issue 26 §5; see the module's comment for the order).
 * A stored file that cannot be removed is logged, not thrown: the rows are gone by then.
 * @returns null when no owner has this id.
 * @throws a plugin's `beforeDelete` error (nothing is deleted then); the database's error.
 */
export async function deleteAccount(deps: AccountDeps, ownerId: string): Promise<DeletedAccount | null> {
  const bots = await chatbotIdsOfOwner(deps.db, ownerId);
  // The bots' files and the plugins' own objects (the owner's voice notes to web visitors, issue 27 §3).
  const keys = [
    ...(await listOwnerFileKeys(deps.db, ownerId)),
    ...((await deps.registry.ownerStoredObjects?.(ownerId)) ?? []).map((o) => o.key),
  ];
  await deps.registry.beforeOwnerDelete(ownerId);
  for (const adapter of deps.registry.adapters.values()) {
    const connections = adapter.connections;
    if (!connections) continue;
    const here = new Set(connections.connected());
    for (const id of bots.filter((b) => here.has(b)))
      await connections
        .disconnect(id, 'removed')
        .catch((err: unknown) =>
          deps.log.warn({ err, channel: adapter.id, chatbotId: id }, 'could not disconnect a deleted bot'),
        );
  }
  if (!(await deleteOwnerRows(deps.db, ownerId))) return null;
  // Other nodes: their supervisor finds the bot gone and disconnects it; their caches forget it.
  await notifyMany(
    deps.db,
    bots.flatMap((id) => [
      { channel: CHANNELS_CHANNEL, payload: id },
      { channel: BOTS_CHANNEL, payload: id },
    ]),
  ).catch((err: unknown) => deps.log.warn({ err }, 'could not tell the other nodes about a deleted account'));
  let files = 0;
  for (const key of keys) {
    try {
      await deps.storage.remove(key);
      files++;
    } catch (err) {
      deps.log.warn({ err, key }, 'could not remove a deleted owner’s stored file');
    }
  }
  deps.log.info({ ownerId, bots: bots.length, files }, 'owner account deleted');
  return { bots: bots.length, files };
}

/**
 * Checks an owner's current password against their credential sign-in method (better-auth's
 * hash, scrypt).
 * @returns `ok`, `wrong`, or `none` when the owner has no password (Google sign-in only).
 */
export async function checkOwnerPassword(
  auth: Auth,
  ownerId: string,
  password: string,
): Promise<'ok' | 'wrong' | 'none'> {
  const ctx = await auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(ownerId);
  const hash = accounts.find((a) => a.providerId === 'credential')?.password;
  if (!hash) return 'none';
  return (await ctx.password.verify({ hash, password })) ? 'ok' : 'wrong';
}
