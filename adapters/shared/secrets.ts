/**
 * Comparing secrets a channel's webhook presents (Telegram's `secret_token`, Meta's signature)
 * without leaking, through timing, how much of a guess was right.
 */
import { timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two strings (UTF-8 bytes); a length mismatch is a plain false. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
