/**
 * Owner accounts created by an operator (the CLI, the demo seed, tests), through better-auth's own
 * adapter so the password is hashed exactly as sign-up hashes it (scrypt).
 */
import { AppError } from '../errors.ts';
import type { Auth } from './index.ts';
import { MIN_PASSWORD_LENGTH } from './index.ts';

/** The spec's password message with ASVS's minimum (000 §5, issue 3). */
export const PASSWORD_TOO_SHORT = `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres`;

/**
 * Creates a confirmed owner with a password, or sets the password of an existing one.
 * @returns the owner's id and whether it was created.
 * @throws AppError BAD_REQUEST when the password is shorter than 8 characters.
 */
export async function upsertOwnerWithPassword(
  auth: Auth,
  email: string,
  password: string,
): Promise<{ id: string; created: boolean }> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AppError('BAD_REQUEST', PASSWORD_TOO_SHORT);
  const ctx = await auth.$context;
  const normalized = email.trim().toLowerCase();
  const hash = await ctx.password.hash(password);
  const found = await ctx.internalAdapter.findUserByEmail(normalized, { includeAccounts: true });
  if (found) {
    const credential = found.accounts.find((a) => a.providerId === 'credential');
    if (credential) await ctx.internalAdapter.updatePassword(found.user.id, hash);
    else
      await ctx.internalAdapter.linkAccount({
        userId: found.user.id,
        providerId: 'credential',
        accountId: found.user.id,
        password: hash,
      });
    if (!found.user.emailVerified)
      await ctx.internalAdapter.updateUser(found.user.id, { emailVerified: true });
    return { id: found.user.id, created: false };
  }
  const user = await ctx.internalAdapter.createUser(
    { email: normalized, name: normalized.split('@')[0] ?? '', emailVerified: true },
    { method: 'admin' },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: hash,
  });
  return { id: user.id, created: true };
}

/**
 * Opens a session for an owner and returns its token, usable as `Authorization: Bearer <token>`
 * (`charla owners token`). This is the only time the raw token exists: the database keeps its
 * hash (./session-tokens.ts, issue 24 item 6), so a lost token cannot be shown again, only
 * replaced by a new one.
 */
export async function createSessionToken(auth: Auth, ownerId: string): Promise<string> {
  const ctx = await auth.$context;
  const session = await ctx.internalAdapter.createSession(ownerId);
  return session.token;
}
