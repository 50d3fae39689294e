/**
 * Stage 4 of a turn, respond: the empathy container (the turn's reading), the file attachment, and
 * the reply: a middleware's answer, the "write it down" text for media without words, the LLM's
 * answer (with the plugins' tools and prompt fragments), or the offline responder's; then, when
 * several files matched, the numbered list offer.
 */
import type { Kysely } from 'kysely';
import { buildEmpathyContainer } from '../../empathy/index.ts';
import { knowledgePrompt, offlineAnswer, type PassageUse, passageUses } from '../../knowledge/answer.ts';
import type { Embedder } from '../../knowledge/embeddings.ts';
import { findPassages } from '../../knowledge/find.ts';
import { citedFileOffer } from '../../knowledge/offer.ts';
import type { FoundPassage } from '../../knowledge/retrieve.ts';
import type { Logger } from '../../logger.ts';
import {
  type InboundMessage,
  type OutboundMessage,
  type Registry,
  type ToolCallRecord,
  type TurnContext,
  toolDefinitions,
} from '../../registry/index.ts';
import type { ArchivosBlock, Attachment, ContenedorEmpatico, HistoryItem, LangCode } from '../../schemas.ts';
import { publicFileUrl } from '../../storage/index.ts';
import type { Database } from '../../store/database.ts';
import type { LoadedBot } from '../cache.ts';
import { fileSentence } from '../file-sentences.ts';
import { readFollower } from '../language.ts';
import type { LlmClient } from '../llm.ts';
import { offlineReply } from '../offline.ts';
import { buildMessages, buildSystemPrompt } from '../prompt.ts';
import { FAILURE_TEXTS, listOffer, MEDIA_NAMES, MEDIA_RECEIVED } from '../texts.ts';
import type { BotParts } from './bot-parts.ts';
import type { MatchOutcome } from './match.ts';
import type { MiddlewareOutcome } from './middleware.ts';

/** What the respond stage needs from the engine. */
export interface RespondDeps {
  registry: Pick<Registry, 'toolRunner' | 'promptFragments' | 'offlineHandlers'>;
  /** The LLM, or null for the offline responder. */
  llm: LlmClient | null;
  log: Logger;
  /** Base URL for absolute file links; relative links when undefined. */
  baseUrl: () => string | undefined;
  /** The database the bot's file passages are searched in (issue 30 §3); none searched without it. */
  db?: Kysely<Database>;
  /** The embeddings server, when configured: file passages are ranked hybrid (issue 30 §2). */
  embedder?: Embedder | null;
}

/** What the respond stage reads. */
export interface RespondInput {
  turn: TurnContext;
  loaded: LoadedBot;
  parts: BotParts;
  history: HistoryItem[];
  middleware: MiddlewareOutcome;
  match: MatchOutcome;
  onToken?: ((text: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** What the respond stage produced. */
export interface Response {
  reply: string;
  /** The file sent with the reply, or null. */
  attachment: Attachment | null;
  container: ContenedorEmpatico;
  /** True when the offline responder answered (no LLM). */
  offline: boolean;
  /** True when the LLM failed and the follower got the failure text. */
  failed: boolean;
  tools: ToolCallRecord[];
  /** The passages of the bot's files given to the LLM or quoted offline (issue 30 §3). */
  passages: PassageUse[];
  /** What a plugin's offline dialogue offers to pick (issue 29: free slots), as {@link OfflineHandler} gave them. */
  choices?: OutboundMessage['choices'];
}

/** Answers the turn (see the module comment). An LLM failure is not thrown: `failed` is set. */
export async function respond(deps: RespondDeps, input: RespondInput): Promise<Response> {
  const { turn, loaded, parts, history, middleware, match, onToken } = input;
  const { bot, files } = loaded;
  const { lang } = parts;
  const inbound: InboundMessage = middleware.inbound;
  const intercepted = middleware.stop?.kind === 'reply' ? middleware.stop : undefined;
  // Media nobody turned into words: kept for the owner, and the follower is asked to write.
  const wordless = !intercepted && !inbound.text;
  const container = buildEmpathyContainer({
    message: middleware.userText,
    history,
    lang,
    files: parts.fileRefs,
    unconfigured: parts.unconfigured,
    sentIds: match.sentIds,
    mentioned: match.mentioned,
    alreadySent: match.alreadySent,
    archivos: match.archivos,
    businessName: bot.business_name,
    now: turn.now,
    timezone: bot.timezone,
  });
  const sending = match.sending;
  // Offline, the bot's own sentences speak the follower's language when it can be told (issue 29).
  const follower =
    deps.llm === null && !intercepted && !wordless
      ? await readFollower(inbound.text, lang)
      : { lang, greeting: false };
  const attachment: Attachment | null = sending
    ? {
        url: publicFileUrl(sending.file_url, deps.baseUrl()),
        type: sending.file_type,
        name: sending.file_name,
        mime: sending.mime_type,
        fileId: sending.id,
        caption: fileSentence(follower.lang, sending.file_type, inbound.messageId),
      }
    : null;

  let reply: string;
  let failed = false;
  const tools: ToolCallRecord[] = [];
  const offline = !intercepted && !wordless && deps.llm === null;
  // A greeting gets a greeting (offline): no search of the files for it. Offline, the files are
  // searched only when the description does not answer (offlineReply asks).
  const searchable = !intercepted && !wordless && !follower.greeting;
  const passages =
    searchable && deps.llm ? await searchFiles(deps, loaded, inbound.text, history, follower.lang) : [];
  let used: FoundPassage[] = [];
  let choices: OutboundMessage['choices'];
  if (intercepted) {
    reply = intercepted.reply;
    onToken?.(reply);
  } else if (wordless) {
    reply = MEDIA_RECEIVED[lang].replace('{media}', middleware.mediaName ?? MEDIA_NAMES[lang].other);
    onToken?.(reply);
  } else if (deps.llm) {
    try {
      const runner = deps.registry.toolRunner(turn, tools);
      const fragments = await deps.registry.promptFragments(turn.bot);
      used = passages;
      const knowledge = knowledgePrompt(passages);
      const system = buildSystemPrompt({
        bot,
        lang,
        files,
        fragments,
        container,
        head: parts.promptHead(),
        knowledge,
      });
      reply = await deps.llm.complete(buildMessages(system, history, inbound.text), {
        ...(onToken ? { onToken } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
        ...(runner.available.length > 0
          ? {
              tools: {
                definitions: toolDefinitions(runner.available.map((tool) => ({ tool }))),
                run: (name: string, toolInput: unknown) => runner.run(name, toolInput),
              },
            }
          : {}),
      });
    } catch (err) {
      failed = true;
      deps.log.warn(
        { err, chatbotId: bot.id, model: deps.llm.model },
        'LLM failed; the follower gets the failure text',
      );
      reply = FAILURE_TEXTS[lang];
      onToken?.(reply);
    }
  } else {
    const dialogue = await offlineDialogue(deps, turn, tools);
    reply = dialogue?.reply ?? '';
    if (dialogue?.choices?.length) choices = dialogue.choices;
    if (!reply) {
      reply = await offlineReply({
        lang,
        businessName: bot.business_name,
        businessDescription: bot.business_description,
        message: inbound.text,
        files,
        container,
        firstTurn: history.length === 0,
        replyLang: follower.lang,
        greeting: follower.greeting,
        fromFiles: async () => {
          const found = searchable
            ? await searchFiles(deps, loaded, inbound.text, history, follower.lang)
            : [];
          const answer = offlineAnswer(inbound.text, found, lang);
          if (!answer) return null;
          return { text: answer.text, quote: answer.quote, take: () => (used = [answer.passage]) };
        },
      });
      if (!reply && attachment) reply = attachment.caption;
    }
    emitInPieces(reply, onToken);
  }
  // A reply from a file's passage offers that file when it is not sent (issue 30 §3).
  const cited = failed
    ? null
    : citedFileOffer({
        reply,
        used,
        offline,
        files: parts.fileRefs,
        archivos: match.archivos,
        sentIds: match.sentIds,
      });
  if (cited) container.archivos = cited;
  if (!failed) reply = withListOffer(reply, cited ?? match.archivos, follower.lang, onToken);
  return {
    reply,
    attachment,
    container,
    offline,
    failed,
    tools,
    passages: passageUses(used),
    ...(choices ? { choices } : {}),
  };
}

/** The bot's file passages for this message (none without a database); a failed search is logged. */
async function searchFiles(
  deps: RespondDeps,
  loaded: LoadedBot,
  message: string,
  history: readonly HistoryItem[],
  questionLang?: LangCode,
): Promise<FoundPassage[]> {
  if (!deps.db || !message) return [];
  try {
    const embeddings = deps.embedder ? { embedder: deps.embedder, log: deps.log } : undefined;
    return await findPassages(deps.db, loaded, message, { history, questionLang, embeddings });
  } catch (err) {
    deps.log.warn({ err, chatbotId: loaded.bot.id }, 'file passages search failed; the turn goes on without');
    return [];
  }
}

/**
 * When several files matched (LIST), the numbered list offer after the reply (alone when the
 * reply is empty); the added text is streamed too. Other replies come back unchanged.
 */
export function withListOffer(
  reply: string,
  archivos: ArchivosBlock,
  lang: LangCode,
  onToken?: (text: string) => void,
): string {
  if (archivos.action !== 'LIST') return reply;
  const offer = listOffer(
    lang,
    archivos.lista.map((f) => f.file_name),
  );
  const suffix = reply.trim() ? `\n\n${offer}` : offer;
  onToken?.(suffix);
  return `${reply.trimEnd()}${suffix}`;
}

/** The plugins' offline dialogues (no LLM): the first reply (and its choices) wins; tool calls are recorded. */
async function offlineDialogue(
  deps: RespondDeps,
  turn: TurnContext,
  record: ToolCallRecord[],
): Promise<{ reply: string; choices?: OutboundMessage['choices'] } | undefined> {
  const handlers = deps.registry.offlineHandlers();
  if (handlers.length === 0) return undefined;
  const runner = deps.registry.toolRunner(turn, record);
  for (const { plugin, handler } of handlers) {
    try {
      const out = await handler(turn, runner);
      if (out?.reply.trim()) return out;
    } catch (err) {
      deps.log.error({ err, plugin }, 'plugin offline dialogue failed; the offline responder answers');
    }
  }
  return undefined;
}

/** Streams a ready text word by word, so offline replies look like streamed ones. */
function emitInPieces(reply: string, onToken?: (text: string) => void): void {
  if (!onToken) return;
  for (const piece of reply.match(/\S+\s*|\s+/g) ?? []) onToken(piece);
}
