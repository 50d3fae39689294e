/**
 * Stage 2 of a turn, middleware: the plugins' middleware may answer (a link code), silence (the
 * owner took over) or rewrite the follower's text (a voice note's transcript). This stage also
 * decides what is stored as the follower's message: its text, or `[Audio]`-like words for media
 * nobody turned into words, with what was received, the original text of a rewrite and the
 * silence.
 */
import type {
  ChannelAdapter,
  InboundMessage,
  MiddlewareDecision,
  Registry,
  TurnContext,
} from '../../registry/index.ts';
import type { HistoryItem, LangCode } from '../../schemas.ts';
import type { InboundMeta } from '../../store/database.ts';
import { MEDIA_NAMES, receivedKind } from '../texts.ts';
import type { BotParts } from './bot-parts.ts';

/** What plugins see of this turn (registry TurnContext). */
export function buildTurnContext(
  inbound: InboundMessage,
  parts: BotParts,
  history: HistoryItem[],
  env: { adapter: ChannelAdapter | undefined; offline: boolean; now: Date },
): TurnContext {
  const { adapter } = env;
  return {
    inbound,
    bot: parts.turnBot,
    files: parts.turnFiles,
    history,
    offline: env.offline,
    turnKey: `${inbound.chatbotId}:${inbound.channel}:${inbound.follower.id}:${inbound.messageId}`,
    now: env.now,
    capabilities: adapter?.capabilities ?? null,
    async media(index) {
      const attachment = inbound.attachments?.[index];
      if (attachment?.data) return { data: attachment.data, mime: attachment.mime ?? null };
      if (!attachment?.channelFileId) throw new Error(`attachment ${index} has no channel file id`);
      if (!adapter?.downloadMedia) throw new Error(`channel ${inbound.channel} cannot download media`);
      return adapter.downloadMedia(inbound.chatbotId, attachment.channelFileId);
    },
  };
}

/** What the middleware stage decided. */
export interface MiddlewareOutcome {
  /** The inbound message with the text after every rewrite (trimmed). */
  inbound: InboundMessage;
  /** A middleware's answer or silence, if any. */
  stop: MiddlewareDecision['stop'];
  /** What is stored as the follower's message. */
  userText: string;
  /** What is stored with it (null when nothing). */
  userMeta: InboundMeta | null;
  /** The name of the first attachment's kind in the bot's language ("audio"), or null. */
  mediaName: string | null;
}

/**
 * The follower's message as stored, from the text they sent and the middleware's decision (pure).
 * @param original the text as received (trimmed); `decision.text` the text after rewrites.
 */
export function describeInbound(
  inbound: InboundMessage,
  original: string,
  decision: MiddlewareDecision,
  lang: LangCode,
): MiddlewareOutcome {
  const rewritten: InboundMessage = { ...inbound, text: decision.text.trim() };
  const received = (rewritten.attachments ?? []).map((a) => ({
    kind: receivedKind(a.type),
    channelFileId: a.channelFileId ?? null,
    mime: a.mime ?? null,
  }));
  const mediaName = received[0] ? MEDIA_NAMES[lang][received[0].kind] : null;
  const userText = rewritten.text || (mediaName ? `[${mediaName}]` : '');
  const silent = decision.stop?.kind === 'silent' ? decision.stop : undefined;
  const userMeta: InboundMeta | null =
    received.length > 0 || original !== userText || silent
      ? {
          ...(received.length > 0 ? { received } : {}),
          ...(original && original !== userText ? { originalText: original } : {}),
          ...(silent ? { silent: { plugin: silent.plugin, reason: silent.reason } } : {}),
        }
      : null;
  return { inbound: rewritten, stop: decision.stop, userText, userMeta, mediaName };
}

/**
 * Runs the plugins' middleware on the turn and describes the follower's message; `turn.inbound`
 * becomes the rewritten message (the later stages and tools see the transcript).
 */
export async function runMiddlewareStage(
  registry: Pick<Registry, 'runMiddleware'>,
  turn: TurnContext,
  lang: LangCode,
): Promise<MiddlewareOutcome> {
  const original = turn.inbound.text;
  const decision = await registry.runMiddleware(turn);
  const outcome = describeInbound(turn.inbound, original, decision, lang);
  turn.inbound = outcome.inbound;
  return outcome;
}
