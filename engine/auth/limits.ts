/**
 * Password guessing limits (issue 3; issue 24 §3): at most 5 failed sign-ins per 15 minutes for one
 * account from one address, and at most 30 failed sign-ins per 15 minutes from one address across
 * accounts (defaults of `signInAccount` and `signInAddress` in engine/rate-limits.ts). An attempt
 * is counted before its password is checked — atomically, in the database every process shares —
 * so 50 concurrent wrong attempts get 5 checks, not 49. A successful sign-in takes its attempt back
 * and clears the account's failures; a refused attempt is answered before the password is checked,
 * whether or not the e-mail exists, so the answer tells nothing about accounts.
 */
import { addressKey, type LimitResult, type RateLimiter } from '../rate-limits.ts';

/** The message of a refused attempt (Spanish, the interface's default; the dashboard localises by code). */
export const TOO_MANY_ATTEMPTS = 'Demasiados intentos fallidos. Inténtalo de nuevo en 15 minutos.';

/** The counter key of an account and address. */
export function failureKey(email: string, address: string): string {
  return `${email.trim().toLowerCase()}|${address}`;
}

/** Counts sign-in attempts per account and address, and per address. */
export class SignInLimiter {
  constructor(private readonly limits: Pick<RateLimiter, 'hit' | 'refund' | 'clear'>) {}

  private checks(email: string, ip: string) {
    const address = addressKey(ip);
    return [
      { limit: 'signInAccount' as const, key: failureKey(email, address) },
      { limit: 'signInAddress' as const, key: address },
    ];
  }

  /**
   * Counts an attempt before its password is checked.
   * @returns `allowed: false` (with the seconds to wait) when either limit is used up.
   */
  attempt(email: string, address: string): Promise<LimitResult> {
    return this.limits.hit(this.checks(email, address));
  }

  /** The attempt succeeded: it does not count, and the account's failures from this address are forgotten. */
  async succeeded(email: string, address: string): Promise<void> {
    const [account, perAddress] = this.checks(email, address);
    await this.limits.clear(account!);
    await this.limits.refund(perAddress!);
  }

  /** The attempt was not a password check (malformed, a server error): it does not count. */
  async uncounted(email: string, address: string): Promise<void> {
    for (const check of this.checks(email, address)) await this.limits.refund(check);
  }
}
