/**
 * Stage 5 of a turn, persist: both messages (or only the follower's, for a silent turn) and the
 * follower in one statement, keyed by the message id, so storing a turn twice stores it once: the
 * second call gets the first one's answer, marked duplicate. A stored turn is counted and announced
 * to live views through the batched side effects (engine/store/batcher.ts); a duplicate is not.
 */
import type { Kysely } from 'kysely';
import type { TurnSideEffects } from '../../store/batcher.ts';
import type { Database, StoredTurnMeta } from '../../store/database.ts';
import { persistTurn, type StoredTurn, type TurnToStore } from '../../store/queries/messages.ts';

/** What a silent turn stores with its (absent) reply. */
export const EMPTY_META: StoredTurnMeta = {
  attachment: null,
  archivosEnviados: [],
  archivos: { action: 'NONE', lista: [] },
  offline: false,
  failed: false,
};

/**
 * Stores a turn once.
 * @returns the stored turn, and `duplicate: true` when this message id was stored already (by a
 *   concurrent request or another process): the caller answers with that one.
 */
export async function persist(
  deps: { db: Kysely<Database>; effects: Pick<TurnSideEffects, 'record'> },
  turn: TurnToStore,
): Promise<{ stored: StoredTurn; duplicate: boolean }> {
  const { turn: stored, duplicate } = await persistTurn(deps.db, turn);
  if (!duplicate)
    deps.effects.record({
      chatbotId: turn.chatbotId,
      channel: turn.channel,
      userId: turn.userId,
      ...(turn.botText === null ? { replies: 0 } : {}),
    });
  return { stored, duplicate };
}
