/**
 * The linked device's auth state in SQL (issue 13): sealed values by category and id, written in
 * transactions fenced by the session's lease.
 */
import { renewLease } from '../queries.ts';
import { LeaseLost, type WaDb } from '../tables.ts';

/** Sealed auth values of one category by id (missing ids are absent). */
export async function readAuth(
  db: WaDb,
  chatbotId: string,
  category: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('whatsapp_auth')
    .select(['key_id', 'value'])
    .where('chatbot_id', '=', chatbotId)
    .where('category', '=', category)
    .where('key_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.key_id, r.value]));
}

/**
 * Writes auth values in one transaction, fenced by the lease: the lease is renewed first and,
 * when another process holds it now, nothing is written (a process that lost the session can
 * never overwrite the keys of the one that has it).
 * @param set rows to upsert (sealed values); `remove` rows to delete.
 * @throws LeaseLost when `holder` does not hold the lease.
 */
export async function writeAuth(
  db: WaDb,
  chatbotId: string,
  fence: { holder: string; leaseMs: number },
  set: ReadonlyArray<{ category: string; id: string; value: string }>,
  remove: ReadonlyArray<{ category: string; id: string }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await renewLease(trx, chatbotId, fence.holder, fence.leaseMs)))
      throw new LeaseLost(`the session of bot ${chatbotId} is held by another process`);
    // Batches keep one statement per 500 rows (a first link writes ~800 pre-keys).
    for (let i = 0; i < set.length; i += 500) {
      await trx
        .insertInto('whatsapp_auth')
        .values(
          set.slice(i, i + 500).map((r) => ({
            chatbot_id: chatbotId,
            category: r.category,
            key_id: r.id,
            value: r.value,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['chatbot_id', 'category', 'key_id'])
            .doUpdateSet({ value: (eb) => eb.ref('excluded.value') }),
        )
        .execute();
    }
    const byCategory = new Map<string, string[]>();
    for (const r of remove) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r.id]);
    for (const [category, ids] of byCategory)
      await trx
        .deleteFrom('whatsapp_auth')
        .where('chatbot_id', '=', chatbotId)
        .where('category', '=', category)
        .where('key_id', 'in', ids)
        .execute();
  });
}

/** Deletes a linked device's whole auth state. */
export async function clearAuth(db: WaDb, chatbotId: string): Promise<void> {
  await db.deleteFrom('whatsapp_auth').where('chatbot_id', '=', chatbotId).execute();
}
