/**
 * What the engine's own HTTP routes (auth, owner, files) receive from the server: the part of
 * engine/http/server.ts `HttpDeps` they read. Declared here, not imported from server.ts, so the
 * routes do not import the server that mounts them (issue 25 §6: no import cycles); server.ts passes
 * its `HttpDeps`, which has every field below.
 */
import type { Kysely } from 'kysely';
import type { Auth } from '../../auth/index.ts';
import type { SignInLimiter } from '../../auth/limits.ts';
import type { ConversationEngine } from '../../conversation/engine.ts';
import type { JobQueue } from '../../jobs/index.ts';
import type { RateLimiter } from '../../rate-limits.ts';
import type { Storage } from '../../storage/index.ts';
import type { Store } from '../../store/connect.ts';
import type { Database } from '../../store/database.ts';

/** The routes' dependencies (a subset of server.ts `HttpDeps`, same meanings). */
export interface RouteDeps {
  db: Kysely<Database>;
  engine: ConversationEngine;
  storage: Storage;
  auth: Auth;
  /** True when Google sign-in is configured. */
  googleSignIn: boolean;
  /**
   * True when owner mails really leave the server (SMTP, or a mailer given in code); false when they
   * are only written to the outbox folder (issue 29: "Revisa tu correo" says so).
   */
  mailConfigured: boolean;
  /** Subscribes to a NOTIFY channel (engine/store/connect.ts `Store.listen`, with its `onResume`). */
  listen: Store['listen'];
  signInLimiter: SignInLimiter;
  /** The shared rate limits (engine/rate-limits.ts). */
  limits: Pick<RateLimiter, 'hit'>;
  /** Base URL for absolute links, once known. */
  baseUrl: () => string | undefined;
  /** The durable job queue: an uploaded file's text is read by a job (issue 30 §1). */
  jobs: Pick<JobQueue, 'send'>;
}
