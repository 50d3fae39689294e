/**
 * Secrets at rest (issue 24 item 6): the session tokens and verification identifiers written
 * before Charla stored them hashed are hashed in place, so a database dump or backup taken from now
 * on signs in as nobody, and every owner signed in before the upgrade stays signed in (their cookie
 * or bearer token is hashed the same way at each request, engine/auth/session-tokens.ts).
 *
 * The hash is engine/secrets.ts `hashToken`: SHA-256 of the UTF-8 text, base64url without padding
 * (43 characters); better-auth's `storeIdentifier: 'hashed'` uses the same form for
 * `auth_verifications.identifier`. Raw session tokens are 32 characters, so rows already holding a
 * 43-character hash are left alone. Google sign-in's access, refresh and id tokens stored before
 * better-auth encrypted them (`account.encryptOAuthTokens`) are cleared: Charla never uses them after
 * sign-in, and a clear one must not stay in a dump. There is no way back: `down` signs everyone out
 * and drops the pending reset links instead of restoring tokens nobody has any more.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

/** `hashToken` in SQL (PostgreSQL 11+ and PGlite have `sha256`; base64 of 32 bytes has no line breaks). */
const hashed = (column: string) =>
  `translate(rtrim(encode(sha256(convert_to(${column}, 'UTF8')), 'base64'), '='), '+/', '-_')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `UPDATE auth_sessions SET token = ${hashed('token')} WHERE length(token) <> 43;
    UPDATE auth_verifications SET identifier = ${hashed('identifier')} WHERE length(identifier) <> 43;
    UPDATE auth_accounts SET access_token = NULL, refresh_token = NULL, id_token = NULL
      WHERE provider_id <> 'credential';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DELETE FROM auth_sessions;\nDELETE FROM auth_verifications;');
}
