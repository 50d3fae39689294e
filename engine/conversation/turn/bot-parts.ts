/**
 * What every turn of a bot derives from the bot and its files alone (issue 25, the speed step):
 * its language, its files as the container and plugins see them, the bot as plugins see it, and
 * the bot's part of the system prompt. Built once per loaded bot: the {@link LoadedBot} object is
 * the key, and the BotCache replaces that object whenever the bot or its files change (a write in
 * this process, the files' change events of any process, or its expiry), so these parts are
 * forgotten with it.
 */

import type { TurnBot } from '../../registry/index.ts';
import type { FileRef, LangCode } from '../../schemas.ts';
import { languageCode } from '../../schemas.ts';
import type { Chatbot, ChatbotFile } from '../../store/database.ts';
import type { LoadedBot } from '../cache.ts';
import { buildPromptHead } from '../prompt.ts';

/** A bot's per-turn constants (see the module comment). Treat every field as read-only. */
export interface BotParts {
  lang: LangCode;
  /** The files as the container and the chat clients see them, in display order. */
  fileRefs: readonly FileRef[];
  /** The files as plugins see them (with their context), in display order. */
  turnFiles: ReadonlyArray<FileRef & { context: string }>;
  /** The bot as plugins see it. */
  turnBot: TurnBot;
  /** Files without a keyword (the container's alert). */
  unconfigured: number;
  /** {@link buildPromptHead} of the bot, built on first use (offline bots never need it). */
  promptHead(): string;
}

/** A file as the container and the chat clients see it. */
export function fileRef(f: ChatbotFile): FileRef {
  return { id: f.id, file_name: f.file_name, file_type: f.file_type, keyword: f.keyword };
}

/** {@link turnBotOf} of each row object it was asked for. */
const turnBots = new WeakMap<Chatbot, TurnBot>();

/**
 * The bot as plugins see it (registry TurnBot): identity, language, clock, and the rest of its row
 * as `settings` (its channels' credentials left out), where each plugin reads its own columns.
 * Built once per row object and shared by every turn and delivery that reads that row (the
 * BotCache's rows are replaced, never changed in place): treat it as read-only.
 */
export function turnBotOf(bot: Chatbot): TurnBot {
  let found = turnBots.get(bot);
  if (!found) {
    const { telegram_token: _telegram, meta_token: _meta, ...settings } = bot;
    found = {
      id: bot.id,
      user_id: bot.user_id,
      business_name: bot.business_name,
      idioma: bot.idioma,
      timezone: bot.timezone,
      settings,
    };
    turnBots.set(bot, found);
  }
  return found;
}

const parts = new WeakMap<LoadedBot, BotParts>();

/** The per-turn constants of a loaded bot, built on first use and kept as long as the object lives. */
export function botParts(loaded: LoadedBot): BotParts {
  let found = parts.get(loaded);
  if (!found) {
    const { bot, files } = loaded;
    const lang = languageCode(bot.idioma);
    const fileRefs = files.map(fileRef);
    let head: string | undefined;
    found = {
      lang,
      fileRefs,
      turnFiles: files.map((f) => ({ ...fileRef(f), context: f.context })),
      turnBot: turnBotOf(bot),
      unconfigured: fileRefs.filter((f) => !f.keyword.trim()).length,
      promptHead: () => {
        head ??= buildPromptHead(bot, lang, files);
        return head;
      },
    };
    parts.set(loaded, found);
  }
  return found;
}
