/**
 * What a linked-device session (session.ts) needs from the WhatsApp adapter, how it ends, how a
 * Baileys close error reads, and why a linking failed (issue 28 §3).
 */
import type { Logger } from '../../../engine/logger.ts';
import type { WhatsAppConfigResponse } from '../api.ts';
import type { WhatsAppSettings } from '../settings.ts';
import type { WaInbound } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import { WHATSAPP_ERRORS } from '../texts.ts';
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

/** Baileys' reason when every QR code of a linking was shown and none was scanned (a 408). */
const QR_RAN_OUT = /QR refs attempts ended/i;

/**
 * How a socket close ends a linking (issue 28 §3), for a session still linking (no device paired):
 * - `qrExpired` only when QR codes were shown (`qrShown` > 0) and ran out: Baileys' 408 "QR refs
 *   attempts ended";
 * - `network` for every other close before the scan: a 408 "Connection was lost" or a timeout
 *   before any QR code, a 428 closed socket, a WebSocket error (DNS, refused, TLS), a stream error;
 * - null once the phone has scanned (`paired`: the creds carry the account): the session must
 *   keep its new creds and reconnect like any linked device. 401 and 515 are handled before.
 */
export function linkCloseOutcome(
  code: number | undefined,
  error: unknown,
  qrShown: number,
  paired: boolean,
  timedOut: number,
): 'qrExpired' | 'network' | null {
  if (paired) return null;
  const message = (error as Error | undefined)?.message ?? '';
  return qrShown > 0 && code === timedOut && QR_RAN_OUT.test(message) ? 'qrExpired' : 'network';
}

/**
 * Why a linking ended, from the connection's stored status and last error (the network failure's
 * text starts with {@link WHATSAPP_ERRORS.linkNetwork}; any other `expired` is QR codes run out).
 */
export function linkFailureOf(
  status: string | null | undefined,
  lastError: string | null | undefined,
): WhatsAppConfigResponse['linkFailure'] {
  if (status !== 'expired') return null;
  return lastError?.startsWith(WHATSAPP_ERRORS.linkNetwork) ? 'network' : 'qrExpired';
}

/**
 * The connection's last error when a close ends a linking ({@link linkCloseOutcome}): the QR text,
 * or the network text followed by the close's code and message; null when the session goes on.
 */
export function linkEndError(
  code: number | undefined,
  error: unknown,
  qrShown: number,
  paired: boolean,
  timedOut: number,
): string | null {
  const outcome = linkCloseOutcome(code, error, qrShown, paired, timedOut);
  if (outcome !== 'network') return outcome && WHATSAPP_ERRORS.qrExpired;
  const detail = `${code ?? '—'}: ${(error as Error | undefined)?.message ?? 'connection closed'}`;
  return `${WHATSAPP_ERRORS.linkNetwork} (${detail})`;
}
