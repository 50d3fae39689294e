/**
 * Stage 1 of a turn, load: the bot and its files (from the BotCache), and in one query the
 * follower's history, what the bot's last message to them carried (files sent, a list offered) and
 * the stored answer when this message id was answered before.
 */
import type { Kysely } from 'kysely';
import { botNotFound } from '../../errors.ts';
import type { InboundMessage } from '../../registry/index.ts';
import type { HistoryItem } from '../../schemas.ts';
import type { ChatbotFile, Database } from '../../store/database.ts';
import { loadConversation, type StoredTurn } from '../../store/queries/messages.ts';
import type { BotCache, LoadedBot } from '../cache.ts';
import { type BotParts, botParts } from './bot-parts.ts';

/** Messages of stored history sent to the LLM. */
export const HISTORY_LIMIT = 12;

/** Anonymous web visitors share one follower id; their history is the client's, never the store's. */
export const ANONYMOUS_FOLLOWER = 'anonymous';

/** What the load stage gives the rest of the turn. */
export interface LoadedTurn {
  loaded: LoadedBot;
  parts: BotParts;
  /** The stored answer of this message id (a retry): the turn ends here. */
  stored: StoredTurn | undefined;
  /** The conversation so far, oldest first (the client's for an anonymous visitor). */
  history: HistoryItem[];
  /** Ids of the bot's files already sent to this follower (stored, plus what the client says). */
  sentBefore: string[];
  /** Ids of the files the previous turn listed (the client's `offered` when given). */
  offered: string[];
}

/**
 * Loads a turn.
 * @param known true when the message id came from the channel (it may have been answered before).
 * @throws AppError NOT_FOUND for an unknown bot.
 */
export async function loadTurn(
  deps: { db: Kysely<Database>; cache: Pick<BotCache, 'get'> },
  inbound: InboundMessage,
  known: boolean,
): Promise<LoadedTurn> {
  const loaded = await deps.cache.get(inbound.chatbotId);
  if (!loaded) throw botNotFound();
  const conversation = await loadConversation(deps.db, {
    chatbotId: loaded.bot.id,
    channel: inbound.channel,
    userId: inbound.follower.id,
    withHistory: inbound.follower.id !== ANONYMOUS_FOLLOWER,
    messageId: known ? inbound.messageId : null,
    limit: HISTORY_LIMIT,
  });
  const parts = botParts(loaded);
  if (conversation.stored)
    return { loaded, parts, stored: conversation.stored, history: [], sentBefore: [], offered: [] };
  const history: HistoryItem[] =
    inbound.history ??
    conversation.history.map((r) => ({
      role: r.sender === 'user' ? ('user' as const) : ('assistant' as const),
      content: r.text,
    }));
  const lastMeta = conversation.lastMeta;
  return {
    loaded,
    parts,
    stored: undefined,
    history,
    sentBefore: knownFileIds(
      [...new Set([...(lastMeta?.archivosEnviados ?? []), ...(inbound.sent ?? [])])],
      loaded.files,
    ),
    offered:
      inbound.offered ??
      (lastMeta?.archivos.action === 'LIST' ? lastMeta.archivos.lista.map((f) => f.id) : []),
  };
}

/** The ids of the bot's files named by id or file name, in the given order; unknown ones dropped. */
function knownFileIds(names: readonly string[], files: readonly ChatbotFile[]): string[] {
  return names
    .map((s) => files.find((f) => f.id === s || f.file_name === s)?.id)
    .filter((id): id is string => Boolean(id));
}
