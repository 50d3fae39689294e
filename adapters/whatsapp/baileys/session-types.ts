/**
 * What a linked-device session (session.ts) needs from the WhatsApp adapter, how it ends, and how
 * a Baileys close error reads.
 */
import type { Logger } from '../../../engine/logger.ts';
import type { WhatsAppSettings } from '../settings.ts';
import type { WaInbound } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import type { BaileysLib } from './lib.ts';

/** Why a session ended for good in this process. */
export type SessionEnd = 'logged_out' | 'expired' | 'lease_lost' | 'stopped';

/** What a session needs. */
export interface SessionDeps {
  lib: BaileysLib;
  db: WaDb;
  chatbotId: string;
  /** This process's id in the lease. */
  holder: string;
  settings: WhatsAppSettings;
  sealer: { encrypt(plain: string): string; decrypt(sealed: string): string };
  log: Logger;
  /** True when the bot was linking (no device paired yet) when the session started. */
  linking: boolean;
  /** Stores a follower's message in the inbox (before Baileys acknowledges anything more). */
  onMessage(message: WaInbound): Promise<void>;
  /** The socket opened: pending updates may be answered. */
  onOpen(): void;
  /** The session ended for good (its entry leaves the adapter's connections). */
  onEnded(reason: SessionEnd): void;
}

/** The status code of a Baileys close error (a Boom error's `output.statusCode`). */
export function closeCode(error: unknown): number | undefined {
  const boom = error as { output?: { statusCode?: number } } | undefined;
  return boom?.output?.statusCode;
}
