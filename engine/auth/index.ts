/**
 * Owner accounts on better-auth (DESIGN.md; issue 3), on Charla's own Kysely database (PGlite or
 * PostgreSQL): e-mail and password with a confirmation mail, sign-in, sign-out, password reset by
 * e-mailed link, password change, and Google sign-in when GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET are set. Sessions live in an httpOnly, SameSite=Lax cookie (Secure when the
 * public URL is https); API clients may send the session token as `Authorization: Bearer`.
 *
 * Secrets at rest (issue 24 item 6): session tokens are stored only as SHA-256 hashes
 * (./session-tokens.ts wraps the database adapter), password-reset tokens and OAuth states in
 * `auth_verifications` are stored hashed (better-auth's `verification.storeIdentifier`), Google's
 * access and refresh tokens are encrypted (`account.encryptOAuthTokens`), and e-mail confirmation
 * links are signed JWTs that are not stored at all. Passwords are scrypt hashes (better-auth).
 *
 * Google runs through better-auth's generic OpenID Connect client with Google's discovery document
 * (GOOGLE_DISCOVERY_URL overrides it, which is how the tests sign in against a local OIDC server).
 */
import { kyselyAdapter } from '@better-auth/kysely-adapter';
import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { bearer, genericOAuth } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import type { Database } from '../store/database.ts';
import { type Mailer, renderMail, requestLanguage } from './mail.ts';
import { ensureProfile } from './profiles.ts';
import { hashSessionTokens } from './session-tokens.ts';

/** The table of owner sessions (better-auth's session model). */
const SESSIONS_TABLE = 'auth_sessions';

/** The Kysely database behind each auth instance's adapter, for better-auth's schema check. */
const databaseOf = new WeakMap<object, Kysely<Database>>();

/** OWASP ASVS 5.0 V6.2.1: at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;

/** Google's OpenID Connect discovery document. */
export const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';

/** What {@link createAuth} needs. */
export interface AuthSettings {
  db: Kysely<Database>;
  /**
   * The public base URL of the server (links in mails, OAuth callbacks, Secure cookies when https).
   * Unset: taken from each request's Host, which suits a local install.
   */
  baseURL: string | undefined;
  /** Signs cookies and tokens. */
  secret: string;
  mailer: Mailer;
  log: Logger;
  /** Free days of a new owner's profile; 0 keeps "no expiry". */
  trialDays: number;
  google?: { clientId: string; clientSecret: string; discoveryUrl?: string | undefined } | undefined;
  /** Other origins the dashboard may be opened from (e.g. localhost beside 127.0.0.1). */
  trustedOrigins?: string[] | undefined;
  /** Where the dashboard lands after confirming an e-mail or signing in with Google. */
  callbackPath?: string;
}

/** Builds the better-auth instance. */
export function createAuth(settings: AuthSettings) {
  const { db, mailer, log } = settings;
  const secure = settings.baseURL?.startsWith('https://') ?? false;
  // better-auth's Kysely adapter on Charla's database, with session tokens stored as hashes.
  const database = (options: BetterAuthOptions) =>
    hashSessionTokens(kyselyAdapter(db, { type: 'postgres' })(options), ['session', SESSIONS_TABLE]);
  databaseOf.set(database, db);
  return betterAuth({
    appName: 'Charla',
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    ...(settings.trustedOrigins?.length ? { trustedOrigins: settings.trustedOrigins } : {}),
    basePath: '/api/auth',
    secret: settings.secret,
    database,
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      // Without PUBLIC_URL the origin is taken from each request on purpose (a local install, tests
      // on random ports); better-auth's warning about it is logged at debug level.
      log: (level, message, ...args) =>
        log[/Base URL is not set/.test(message) ? 'debug' : level]({ args }, `auth: ${message}`),
    },
    user: {
      modelName: 'owners',
      fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
      // Issue 29 (account menu): a new address is confirmed by a link sent to it (the confirmation
      // mail below); the address changes when it is opened.
      changeEmail: { enabled: true },
    },
    session: {
      modelName: SESSIONS_TABLE,
      fields: {
        userId: 'user_id',
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    account: {
      modelName: 'auth_accounts',
      // Google's access and refresh tokens, encrypted under the instance secret (XChaCha20-Poly1305).
      encryptOAuthTokens: true,
      fields: {
        userId: 'user_id',
        accountId: 'account_id',
        providerId: 'provider_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'auth_verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
      // Reset tokens (`reset-password:<token>`) and OAuth states are stored as SHA-256 hashes; a
      // link mailed before this was set (a plain row) is still found, better-auth tries both.
      storeIdentifier: 'hashed',
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: 'charla',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      database: { generateId: () => crypto.randomUUID() },
      // engine/http/routes/auth.ts puts the client address Fastify resolved (trustProxy) here.
      ipAddress: { ipAddressHeaders: ['x-charla-client-ip'] },
    },
    // Every limit of the auth routes is Charla's (engine/http/routes/auth.ts with engine/rate-limits.ts:
    // counted in the database, so every node counts together); the library's in-memory one is off.
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }, request) {
        await mailer.send(renderMail('reset', requestLanguage(request?.headers), user.email, url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Signing in before confirming sends the link again (the login screen says so).
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      async sendVerificationEmail({ user, url }, request) {
        // A link sent again at sign-in carries no callbackURL (the dashboard passes none there, so
        // better-auth's client does not reload the page after signing in): land it on the
        // dashboard's callback screen like the sign-up link.
        const link = new URL(url);
        const callback = link.searchParams.get('callbackURL');
        if (!callback || callback === '/') link.searchParams.set('callbackURL', '/auth/callback');
        await mailer.send(
          renderMail('verify', requestLanguage(request?.headers), user.email, link.toString()),
        );
      },
    },
    databaseHooks: {
      session: {
        create: {
          // The first sign-in gives the owner a profile with the free trial (issue 3, spec 001 §3).
          async after(session) {
            await ensureProfile(db, session.userId, settings.trialDays);
          },
        },
      },
    },
    plugins: [
      bearer(),
      ...(settings.google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  clientId: settings.google.clientId,
                  clientSecret: settings.google.clientSecret,
                  discoveryUrl: settings.google.discoveryUrl ?? GOOGLE_DISCOVERY_URL,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

/** The better-auth instance type. */
export type Auth = ReturnType<typeof createAuth>;

/**
 * The auth instance's options as better-auth's migrator takes them: with the Kysely database
 * itself in place of the wrapped adapter (the migrator only reads a database, never an adapter).
 */
export function authSchemaOptions(auth: Auth): BetterAuthOptions {
  const db = databaseOf.get(auth.options.database as object);
  if (!db) throw new Error('not an auth instance made by createAuth');
  return { ...auth.options, database: { db, type: 'postgres' } };
}

/**
 * Brings better-auth's tables up to what the installed better-auth expects (issue 3: its schema is
 * applied by `charla migrate`, in code). Charla's own migration creates them with snake_case
 * columns; this adds whatever a newer better-auth needs on top.
 * @returns the tables created or changed (empty when the schema already matches).
 */
export async function applyAuthSchema(auth: Auth): Promise<string[]> {
  const plan = await getMigrations(authSchemaOptions(auth));
  const changed = [...plan.toBeCreated, ...plan.toBeAdded].map((t) => t.table);
  if (changed.length > 0 || plan.toBeAddedIndexes.length > 0) await plan.runMigrations();
  return [...new Set([...changed, ...plan.toBeAddedIndexes.map((i) => i.table)])];
}
