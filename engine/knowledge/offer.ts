/**
 * A reply that cites a file can offer to send it (issue 30 §3): when the LLM's reply or the offline
 * answer comes from a passage of a file that is not sent this turn, that file becomes the turn's
 * LIST offer, the one path the engine already has for offering files (the numbered list after the
 * reply, engine/conversation/texts.ts listOffer; the follower's "1" or the file's name sends it on
 * the next turn, engine/matching pickIndex).
 */
import type { ArchivosBlock, FileRef } from '../schemas.ts';
import type { FoundPassage } from './retrieve.ts';

/** What {@link citedFileOffer} reads. */
export interface CitedFileInput {
  /** The reply the follower gets. */
  reply: string;
  /** The passages the reply was made from (given to the LLM, or quoted offline). */
  used: readonly FoundPassage[];
  /** True when the reply is the offline answer (it quotes `used[0]`, no citation needs finding). */
  offline: boolean;
  /** The bot's files (their refs), in display order. */
  files: readonly FileRef[];
  /** The keyword match's block for this turn: an offer is only added when it is NONE. */
  archivos: ArchivosBlock;
  /** Files sent to this follower, this turn's included, by id: never offered again. */
  sentIds: readonly string[];
}

/**
 * The LIST block offering the files the reply cites, or null when there is none to offer (the
 * match already sends or lists files, no passage was used, or the cited files were all sent).
 * The LLM's reply cites a file when it names it ("(carta.pdf, p. 2)"); the offline answer always
 * names the file of its passage. Files keep the bot's display order.
 */
export function citedFileOffer(input: CitedFileInput): ArchivosBlock | null {
  if (input.archivos.action !== 'NONE' || input.used.length === 0) return null;
  const reply = input.reply.toLowerCase();
  const cited = new Set(
    (input.offline ? input.used.slice(0, 1) : input.used)
      .filter((p) => input.offline || reply.includes(p.fileName.toLowerCase()))
      .map((p) => p.fileId),
  );
  const lista = input.files.filter((f) => cited.has(f.id) && !input.sentIds.includes(f.id));
  return lista.length > 0 ? { action: 'LIST', lista } : null;
}
