/**
 * The files' passages for a turn of a loaded bot (issue 30 §3): {@link retrievePassages} with what
 * a loaded bot lets it skip. No query at all for a bot without files; whether it has passages (and
 * their index, ./terms.ts) is asked once per loaded bot object (the BotCache's, replaced whenever
 * the bot or its files change in any process, or expire), as is whether it has embeddings of the
 * configured model.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import type { HistoryItem, LangCode } from '../schemas.ts';
import type { Database } from '../store/database.ts';
import type { Embedder } from './embeddings.ts';
import { DEFAULT_K, type FoundPassage, retrievePassages } from './retrieve.ts';
import { type PassagesIndex, passagesIndex } from './terms.ts';
import { hasEmbeddings } from './vectors.ts';

/** What a loaded bot must offer for {@link findPassages} (the BotCache's object). */
export interface KnowledgeBot {
  bot: { id: string };
  files: readonly unknown[];
}

/** {@link PassagesIndex} of each loaded bot (null: no passages), asked once per loaded object. */
const indexes = new WeakMap<KnowledgeBot, Promise<PassagesIndex | null>>();
/** Whether each loaded bot has embeddings of the configured model (asked only when configured). */
const vectorsOf = new WeakMap<KnowledgeBot, Promise<boolean>>();

/**
 * {@link retrievePassages} for a turn of a loaded bot: no query at all for a bot without files,
 * one indexed lookup per loaded bot object to learn whether it has passages (see the module
 * comment), then the search. A failed search is the caller's to log; it returns nothing here.
 */
export async function findPassages(
  db: Kysely<Database>,
  loaded: KnowledgeBot,
  message: string,
  options: {
    history?: readonly HistoryItem[];
    k?: number;
    /** The follower's language when told: what the question asks is read in it too. */
    questionLang?: LangCode;
    embeddings?: { embedder: Embedder | null; log: Pick<Logger, 'warn'> } | undefined;
  } = {},
): Promise<FoundPassage[]> {
  const { history = [], k = DEFAULT_K, questionLang, embeddings } = options;
  if (loaded.files.length === 0) return [];
  const embedder = embeddings?.embedder;
  let index = indexes.get(loaded);
  if (!index) {
    index = passagesIndex(db, loaded.bot.id);
    indexes.set(loaded, index);
    index.catch(() => indexes.delete(loaded));
  }
  const found = await index;
  if (!found) return [];
  const query = {
    chatbotId: loaded.bot.id,
    message,
    history,
    k,
    index: found,
    ...(questionLang ? { questionLang } : {}),
  };
  if (!embedder) return retrievePassages(db, query);
  let embedded = vectorsOf.get(loaded);
  if (!embedded) {
    embedded = hasEmbeddings(db, loaded.bot.id, embedder.model);
    vectorsOf.set(loaded, embedded);
    embedded.catch(() => vectorsOf.delete(loaded));
  }
  return retrievePassages(db, { ...query, embedder, embedded: await embedded, log: embeddings.log });
}
