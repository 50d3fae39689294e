/**
 * Password guessing limit (issue 3): 5 failed sign-ins per 15 minutes per account and address. The
 * 6th attempt is refused before the password is checked, whether or not the e-mail exists, so the
 * answer tells nothing about accounts. Counters live in the database, so every Charla process
 * shares them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.ts';
import { clearFailures, recentFailures, recordFailure } from '../store/queries/auth.ts';

export const SIGN_IN_LIMIT = { failures: 5, windowMs: 15 * 60_000 } as const;

/** The message of a refused attempt (Spanish, the interface's default; the dashboard localises by code). */
export const TOO_MANY_ATTEMPTS = 'Demasiados intentos fallidos. Inténtalo de nuevo en 15 minutos.';

/** The counter key of an account and address. */
export function failureKey(email: string, address: string): string {
  return `${email.trim().toLowerCase()}|${address}`;
}

/** Tracks sign-in failures per account and address. */
export class SignInLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private since(): Date {
    return new Date(this.now().getTime() - SIGN_IN_LIMIT.windowMs);
  }

  /** True when this account and address used up their failures in the current window. */
  async blocked(key: string): Promise<boolean> {
    return (await recentFailures(this.db, key, this.since())) >= SIGN_IN_LIMIT.failures;
  }

  async failed(key: string): Promise<void> {
    await recordFailure(this.db, key, this.since(), this.now());
  }

  async succeeded(key: string): Promise<void> {
    await clearFailures(this.db, key);
  }
}
