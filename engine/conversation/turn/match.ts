/**
 * Stage 3 of a turn, match: which of the bot's files the follower's message asks for (keyword
 * matching, engine/matching): one file is sent (SEND), several are offered as a list (LIST).
 */
import { matchFiles } from '../../matching/index.ts';
import type { ArchivosBlock, FileRef } from '../../schemas.ts';
import type { ChatbotFile } from '../../store/database.ts';
import { fileRef } from './bot-parts.ts';

/** What the match stage reads. */
export interface MatchInput {
  /** The follower's text after the middleware. */
  text: string;
  /** The bot's files in display order. */
  files: readonly ChatbotFile[];
  /** Files the previous turn listed, by id. */
  offered: readonly string[];
  /** Files already sent to this follower, by id. */
  sentBefore: readonly string[];
  /** True when no matching is done (a middleware answered, or media without words). */
  skip: boolean;
}

/** What the match stage decided. */
export interface MatchOutcome {
  /** The file sent with this turn's reply, or null. */
  sending: ChatbotFile | null;
  /** The container's `archivos` block: SEND one, LIST several, or NONE. */
  archivos: ArchivosBlock;
  /** Files sent to this follower including this turn's, by id. */
  sentIds: string[];
  /** Files asked for again that were already sent (not re-sent). */
  alreadySent: FileRef[];
  /** The file sent, or the first one asked for again: what the container mentions. */
  mentioned: FileRef | null;
}

/** Matches the follower's text against the bot's files (pure). */
export function matchStage(input: MatchInput): MatchOutcome {
  const match = input.skip
    ? null
    : matchFiles(input.text, input.files, { offered: input.offered, sent: input.sentBefore });
  const sending = match?.action === 'SEND' ? match.files[0]! : null;
  const archivos: ArchivosBlock =
    match?.action === 'LIST'
      ? { action: 'LIST', lista: match.files.map(fileRef) }
      : { action: sending ? 'SEND' : 'NONE', lista: sending ? [fileRef(sending)] : [] };
  const sentIds =
    sending && !input.sentBefore.includes(sending.id)
      ? [...input.sentBefore, sending.id]
      : [...input.sentBefore];
  const alreadySent = (match?.alreadySent ?? []).map(fileRef);
  return {
    sending,
    archivos,
    sentIds,
    alreadySent,
    mentioned: sending ? fileRef(sending) : (alreadySent[0] ?? null),
  };
}
