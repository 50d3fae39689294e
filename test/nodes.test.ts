/**
 * Nodes on one PostgreSQL database share one CHARLA_SECRET (issue 26 §2, engine/nodes.ts): a node
 * whose secret differs from the running nodes' (its data dir's own key included) refuses to start
 * with a message naming CHARLA_SECRET; the same secret joins, also a restarted node with the same
 * data dir key; a node that stopped (left) or died long ago (stale) does not count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../engine/logger.ts';
import { registerNode, SecretMismatchError } from '../engine/nodes.ts';
import type { Store } from '../engine/store/connect.ts';
import { twoStores } from './helpers/db.ts';

const log = createLogger({ level: 'silent' });
const SECRET = 'a-secret-shared-by-every-node-000';

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('nodes on one PostgreSQL database', () => {
  let stores: [Store, Store];
  beforeAll(async () => {
    stores = await twoStores('postgres');
  });
  afterAll(async () => {
    for (const s of stores ?? []) await s.close();
  });

  it('lets in nodes with the same secret and refuses another secret or a data dir’s own', async () => {
    const [a, b] = stores;
    const first = await registerNode(a.db, { secret: SECRET, shared: true, role: 'all', log });
    const refused = registerNode(b.db, {
      secret: 'another-secret-of-some-node-00000',
      shared: true,
      role: 'all',
      log,
    });
    await expect(refused).rejects.toThrow(SecretMismatchError);
    await expect(refused).rejects.toThrow(/different secret.*same CHARLA_SECRET/);
    // A data dir's own key is another secret too: named so the operator knows what to set.
    await expect(
      registerNode(b.db, { secret: 'its-own-data-dir-secret-000000000', shared: false, role: 'all', log }),
    ).rejects.toThrow(/CHARLA_SECRET is not set here/);
    // The same key from a data dir (one node restarted after a crash) is let in.
    const restarted = await registerNode(b.db, { secret: SECRET, shared: false, role: 'all', log });
    await restarted.leave();
    const second = await registerNode(b.db, { secret: SECRET, shared: true, role: 'worker', log });
    expect(await a.db.selectFrom('nodes').select('role').orderBy('role').execute()).toEqual([
      { role: 'all' },
      { role: 'worker' },
    ]);
    await first.leave();
    await second.leave();
    // Nobody runs now: a node with its own secret may start (a single node).
    const alone = await registerNode(b.db, {
      secret: 'its-own-data-dir-secret-000000000',
      shared: false,
      role: 'all',
      log,
    });
    await alone.leave();
    // A crashed node's row, not seen for long, does not block a start.
    await a.db
      .insertInto('nodes')
      .values({
        id: 'crashed',
        host: 'gone',
        pid: 1,
        role: 'all',
        secret_fingerprint: 'x',
        secret_shared: true,
        seen_at: new Date(Date.now() - 10 * 60_000),
      })
      .execute();
    const after = await registerNode(a.db, { secret: SECRET, shared: true, role: 'all', log });
    await after.leave();
  });
});
