/**
 * Runtime configuration read from the environment, validated with zod. Every setting has an
 * embedded default so `npm start` works on a fresh machine with no variables at all.
 * The README's configuration table documents the same variables.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const int = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/**
 * `DATABASE_URL` (issue 24 §7): a PostgreSQL connection URI, `postgres://` or `postgresql://`
 * (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS), that parses
 * as a URL. Anything else (another database's scheme, a typo, a port that is not a number) is
 * refused when the configuration is read, with a one-line reason that shows only the scheme: the
 * URL may carry a password.
 */
const databaseUrl = optionalString.superRefine((v, ctx) => {
  if (v === undefined) return;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v)?.[1]?.toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    ctx.addIssue({
      code: 'custom',
      message: `must be a PostgreSQL URL, postgres://user:password@host:5432/database (${
        scheme ? `it starts with "${scheme}:"` : 'it has no scheme'
      })`,
    });
    return;
  }
  try {
    new URL(v);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message:
        'is not a valid URL: expected postgres://user:password@host:5432/database (a password with @, : or / must be percent-encoded)',
    });
  }
});

const EnvSchema = z.object({
  CHARLA_DATA_DIR: optionalString,
  DATABASE_URL: databaseUrl,
  PUBLIC_URL: optionalString,
  OPENAI_BASE_URL: optionalString,
  OPENAI_API_KEY: optionalString,
  CHARLA_LLM_MODEL: optionalString,
  CHARLA_LLM_TIMEOUT_MS: int(30_000),
  CHARLA_LLM_MAX_RETRIES: int(2),
  CHARLA_EMBEDDINGS_BASE_URL: optionalString,
  CHARLA_EMBEDDINGS_MODEL: optionalString,
  CHARLA_EMBEDDINGS_API_KEY: optionalString,
  CHARLA_EMBEDDINGS_PGVECTOR: z.enum(['on', 'off', '']).optional(),
  CHARLA_SECRET: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_DISCOVERY_URL: optionalString,
  CHARLA_TRIAL_DAYS: int(30),
  CHARLA_INBOX_LEASE_MS: int(60_000),
  TRUST_PROXY: optionalString,
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CHARLA_METRICS_TOKEN: optionalString,
  CHARLA_SHUTDOWN_GRACE_MS: int(10_000),
  CHARLA_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  CHARLA_LOG_CONTEXT: z.enum(['on', 'off', '']).optional(),
});

/** The validated configuration; paths are absolute. */
export interface CharlaConfig {
  /** Folder for embedded data: `pgdata/`, `storage/`, `secret`, `outbox/`. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite in `dataDir/pgdata` is used. */
  databaseUrl: string | undefined;
  /** Public base URL of this server (no trailing slash), used for absolute file links and webhooks. */
  publicUrl: string | undefined;
  llm: {
    /** True when an OpenAI-compatible server is configured (base URL or API key set). */
    enabled: boolean;
    baseURL: string | undefined;
    apiKey: string;
    model: string;
    /** Time limit of one LLM request, ms. */
    timeoutMs: number;
    /** Retries after a failed LLM request (connection errors, 408, 409, 429, 5xx), done by the SDK. */
    maxRetries: number;
  };
  /**
   * Optional embeddings server (issue 30 §2): an OpenAI-compatible `POST /v1/embeddings`, used when
   * both `CHARLA_EMBEDDINGS_BASE_URL` and `CHARLA_EMBEDDINGS_MODEL` are set (engine/knowledge/embeddings.ts).
   * `pgvector` (`CHARLA_EMBEDDINGS_PGVECTOR`, `on` unless `off`): whether a start sets pgvector's
   * column up where the extension is available (engine/knowledge/pgvector.ts).
   */
  embeddings: { baseURL: string; model: string; apiKey: string; pgvector: boolean } | undefined;
  /** Key material for encrypting secrets at rest and signing tokens; see engine/secrets.ts. */
  secret: string | undefined;
  mail: {
    /** nodemailer SMTP URL, e.g. `smtp://user:pass@smtp.example.com:587`; unset: mails go to `<dataDir>/outbox/`. */
    smtpUrl: string | undefined;
    from: string;
  };
  /** Google sign-in, when both id and secret are set. */
  google: { clientId: string; clientSecret: string; discoveryUrl: string | undefined } | undefined;
  /** Free days of a new owner (issue 3: the marketing site's 30-day trial); 0 keeps "no expiry". */
  trialDays: number;
  /**
   * How long a process's claim on a channel update holds without renewal, ms: after a crash, the
   * updates it was answering are taken over this long after (engine/channels/inbox.ts).
   */
  inboxLeaseMs: number;
  /**
   * Which proxies' X-Forwarded-* headers to believe (Fastify trustProxy / proxy-addr syntax:
   * "loopback", addresses, CIDRs, comma-separated). Default loopback: a reverse proxy on the same host.
   */
  trustProxy: string;
  /**
   * Object storage for bot files (issue 26 §1), when `S3_BUCKET` is set; unset: files stay on
   * disk under `dataDir/storage/chatbot-files` (engine/storage/index.ts).
   */
  s3: S3Config | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** `CHARLA_METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <it>` (issue 26 §3). */
  metricsToken: string | undefined;
  /**
   * How long a stopping node (SIGTERM) waits for requests in flight — turns, uploads — before it
   * closes their connections, ms (default 10,000; issue 26 §3).
   */
  shutdownGraceMs: number;
  /**
   * `CHARLA_ROLE` (issue 26 §2): `all` (default) runs everything; `web` serves HTTP and runs the
   * turns requests carry but no background work (no job worker, no Telegram polling, no WhatsApp
   * linked-device socket, no inbox recovery); `worker` runs that background work and serves only
   * /healthz, /readyz and /metrics. Several web nodes behind a proxy plus one or more workers.
   */
  role: 'all' | 'web' | 'worker';
  /**
   * `CHARLA_LOG_CONTEXT=on`: every line logged while answering a request, running a job or handling
   * a channel update carries its id, also deep in the engine and plugins (engine/log-context.ts;
   * costs ~25 % more CPU per message on Node 20). Off (default): the HTTP layer's lines carry it.
   */
  logContext: boolean;
}

/** An S3-compatible bucket (AWS S3, MinIO, R2 …) that holds the bot files (engine/storage/s3.ts). */
export interface S3Config {
  bucket: string;
  /** The service's address, e.g. `http://minio:9000`; unset: AWS S3 of `region`. */
  endpoint: string | undefined;
  /** Default `us-east-1` (MinIO and most compatible servers ignore it). */
  region: string;
  /** Unset: the SDK's default credential chain (environment, instance role …). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Path-style addresses (`endpoint/bucket/key`), what MinIO and most self-hosted servers need. */
  forcePathStyle: boolean;
}

/** The configuration in the environment is invalid; the message is one line naming each variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the configuration from `env` (default `process.env`).
 * @throws ConfigError naming every invalid variable on one line (the CLI prints it as `charla: …`,
 *   no stack), e.g. `Invalid configuration: CHARLA_LLM_TIMEOUT_MS: expected a whole number, got "x"`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): CharlaConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`.replace(/\s+/g, ' '));
    throw new ConfigError(`Invalid configuration: ${reasons.join('; ')}`);
  }
  const e = parsed.data;
  return {
    dataDir: resolve(e.CHARLA_DATA_DIR ?? '.charla'),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    llm: {
      enabled: Boolean(e.OPENAI_BASE_URL || e.OPENAI_API_KEY),
      baseURL: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY ?? 'not-needed',
      model: e.CHARLA_LLM_MODEL ?? 'gpt-4o-mini',
      timeoutMs: e.CHARLA_LLM_TIMEOUT_MS,
      maxRetries: e.CHARLA_LLM_MAX_RETRIES,
    },
    embeddings:
      e.CHARLA_EMBEDDINGS_BASE_URL && e.CHARLA_EMBEDDINGS_MODEL
        ? {
            baseURL: e.CHARLA_EMBEDDINGS_BASE_URL,
            model: e.CHARLA_EMBEDDINGS_MODEL,
            apiKey: e.CHARLA_EMBEDDINGS_API_KEY ?? 'not-needed',
            pgvector: e.CHARLA_EMBEDDINGS_PGVECTOR !== 'off',
          }
        : undefined,
    secret: e.CHARLA_SECRET,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? 'Charla <no-reply@charla.local>' },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            discoveryUrl: e.GOOGLE_DISCOVERY_URL,
          }
        : undefined,
    trialDays: e.CHARLA_TRIAL_DAYS,
    inboxLeaseMs: e.CHARLA_INBOX_LEASE_MS,
    trustProxy: e.TRUST_PROXY ?? 'loopback',
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
          region: e.S3_REGION ?? 'us-east-1',
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.CHARLA_METRICS_TOKEN,
    shutdownGraceMs: e.CHARLA_SHUTDOWN_GRACE_MS,
    role: e.CHARLA_ROLE,
    logContext: e.CHARLA_LOG_CONTEXT === 'on',
  };
}
