/**
 * The Charla processes on one PostgreSQL database (issue 26 §2: every node the same). Nodes must
 * share one `CHARLA_SECRET`: it signs session cookies and e-mail links and encrypts bot tokens, so
 * a node with another secret would sign users out, break links and fail to read the tokens the
 * others stored. Without `CHARLA_SECRET` each data dir generates its own (engine/secrets.ts), which
 * is right for one embedded node and wrong for two.
 *
 * So a node registers at start ({@link registerNode}): its secret's fingerprint (an HMAC of a fixed
 * text, which reveals nothing of the secret) and whether the secret came from `CHARLA_SECRET`. It
 * refuses to start — with a message saying what to set — when another node seen in the last
 * {@link NODE_STALE_MS} has a different fingerprint (two nodes with their own data dirs' keys
 * differ; one node restarted after a crash, or nodes sharing one key, match). It says it is alive
 * every {@link NODE_HEARTBEAT_MS} and leaves at a clean stop. PGlite is one process (its data dir is locked): nothing to register.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from './logger.ts';
import type { Database } from './store/database.ts';
import {
  insertNode,
  liveNodes,
  lockNodeRegistration,
  removeGoneNodes,
  removeNode,
  touchNode,
} from './store/queries/nodes.ts';

/** How often a node says it is alive, ms. */
export const NODE_HEARTBEAT_MS = 30_000;
/** A node not seen for this long is taken for gone, ms (a crash leaves its row behind). */
export const NODE_STALE_MS = 3 * NODE_HEARTBEAT_MS;

/** Thrown when this node's secret does not match the running nodes'. */
export class SecretMismatchError extends Error {
  override name = 'SecretMismatchError';
}

/** The fingerprint of a secret: equal for equal secrets, and reveals nothing of it. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('charla:node-fingerprint:v1').digest('base64url').slice(0, 22);
}

/** A registered node: its id, and what stops its heartbeat and removes it. */
export interface RegisteredNode {
  id: string;
  leave(): Promise<void>;
}

/**
 * Registers this process among the nodes of the database.
 * @param shared true when the secret came from `CHARLA_SECRET`.
 * @throws SecretMismatchError when another live node has another secret.
 */
export async function registerNode(
  db: Kysely<Database>,
  options: { secret: string; shared: boolean; role: string; log: Logger; heartbeatMs?: number },
): Promise<RegisteredNode> {
  const fingerprint = secretFingerprint(options.secret);
  const id = randomUUID();
  // One start at a time: two nodes starting at once with different secrets cannot both get in.
  await db.transaction().execute(async (trx) => {
    await lockNodeRegistration(trx);
    const live = await liveNodes(trx, NODE_STALE_MS);
    const other = live.find((n) => n.secret_fingerprint !== fingerprint);
    if (other)
      throw new SecretMismatchError(
        `another Charla node (${other.host}, pid ${other.pid}) runs on this database with a different secret` +
          (options.shared
            ? ''
            : ' (CHARLA_SECRET is not set here: this node would use its data dir’s own key)') +
          ': every node must have the same CHARLA_SECRET (sessions, e-mail links and stored bot tokens depend on it). ' +
          'Set it to the running nodes’ value and start again (docs/deploy.md).',
      );
    await insertNode(trx, {
      id,
      host: hostname(),
      pid: process.pid,
      role: options.role,
      fingerprint,
      shared: options.shared,
    });
  });
  // Rows of nodes gone for long are removed by whoever starts next.
  await removeGoneNodes(db, 10 * NODE_STALE_MS);
  const timer = setInterval(() => {
    touchNode(db, id).catch((err: unknown) =>
      options.log.warn({ err }, 'could not record this node as alive'),
    );
  }, options.heartbeatMs ?? NODE_HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    async leave() {
      clearInterval(timer);
      await removeNode(db, id).catch((err: unknown) =>
        options.log.warn({ err }, 'could not remove this node from the nodes table'),
      );
    },
  };
}
