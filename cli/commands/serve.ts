/**
 * `charla serve` (migrate, then serve the API and files) and `charla start` (migrate, seed the demo,
 * serve: what `npm start` runs on a fresh machine).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../engine/config.ts';
import { setLogContext } from '../../engine/log-context.ts';
import { createLogger, type Logger } from '../../engine/logger.ts';
import { type RegisteredNode, registerNode, SecretMismatchError } from '../../engine/nodes.ts';
import { resolveSecret } from '../../engine/secrets.ts';
import { DataDirBusyError } from '../../engine/store/data-dir-lock.ts';
import { findOwnerByEmail } from '../../engine/store/queries/owners.ts';
import { createApp } from '../app.ts';
import { ensureDashboardBuilt, ensureSiteBuilt, ensureWidgetBuilt } from '../dashboard.ts';
import { DEMO_BOT_NAME, DEMO_EMAIL, DEMO_PASSWORD, findDemoBotId, seedDemo } from '../seed.ts';
import { CliError, EXIT } from '../util.ts';

interface ServeOptions {
  port: string;
  host: string;
  seed?: boolean;
}

/** Where a running server advertises itself, so `charla chat` can talk to it instead of opening the data dir. */
export function serverInfoPath(dataDir: string): string {
  return join(dataDir, 'server.json');
}

/**
 * Warns once at start when the server is public (PUBLIC_URL is https) but owner mails go to the
 * outbox folder (no SMTP_URL): confirmation and reset mails then never reach the owners, and only
 * someone with access to the data dir can read them (issue 24 item 6).
 */
export function warnAboutOutbox(
  config: { publicUrl: string | undefined; dataDir: string; mail: { smtpUrl: string | undefined } },
  log: Logger,
): void {
  if (!config.publicUrl?.startsWith('https://') || config.mail.smtpUrl) return;
  log.warn(
    { outbox: join(config.dataDir, 'outbox') },
    'PUBLIC_URL is https but SMTP_URL is not set: confirmation and password-reset mails are only written to the outbox folder on this machine, never sent. Set SMTP_URL (README: Configuration).',
  );
}

async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig();
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`invalid --port "${options.port}"`, EXIT.usage);
  const log = createLogger({ pretty: process.stdout.isTTY, level: config.logLevel });
  setLogContext(config.logContext);
  warnAboutOutbox(config, log);
  if (options.seed) {
    await ensureDashboardBuilt(() => log.info('building the dashboard (its sources changed)')).catch(
      (err: unknown) => log.warn({ err }, 'could not build the dashboard; serving the last build'),
    );
    await ensureWidgetBuilt(() => log.info('building the web widget (its sources changed)')).catch(
      (err: unknown) => log.warn({ err }, 'could not build the web widget; serving the last build'),
    );
    await ensureSiteBuilt(() => log.info('building the public site’s script (its sources changed)')).catch(
      (err: unknown) => log.warn({ err }, 'could not build the public site’s script; serving the last build'),
    );
  }
  const started = Date.now();
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    // Without PUBLIC_URL, links (files, mails, sign-in callbacks) use the address being served.
    const served =
      port > 0
        ? `http://${options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host}:${port}`
        : undefined;
    app = await createApp(
      { ...config, publicUrl: config.publicUrl ?? served },
      { log, deferMigrations: true },
    );
  } catch (err) {
    if (err instanceof DataDirBusyError) throw new CliError(err.message, EXIT.busy);
    throw err;
  }
  let server: Awaited<ReturnType<typeof app.http>>;
  let node: RegisteredNode | undefined;
  try {
    server = await app.http();
    await app.ready();
    // Issue 26 §2: on PostgreSQL, several nodes must share one CHARLA_SECRET (engine/nodes.ts).
    if (app.store.kind === 'postgres')
      node = await registerNode(app.store.db, {
        secret: resolveSecret(config.dataDir, config.secret),
        shared: Boolean(config.secret),
        role: config.role,
        log,
      });
  } catch (err) {
    await app.close().catch(() => {});
    if (err instanceof SecretMismatchError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
  // `charla start` seeds before it listens (the banner's demo must exist when the URL is printed);
  // `charla serve` listens first and reads the banner's demo afterwards: answering does not need it.
  let demoBotId: string | undefined;
  if (options.seed) demoBotId = (await seedDemo(app, (line) => log.info(`seed: ${line}`))).bot.id;
  const address = await server.listen({ port, host: options.host });
  const url = address.replace('[::1]', 'localhost');
  app.setBaseUrl(config.publicUrl ?? url);
  const infoFile = serverInfoPath(config.dataDir);
  // On PostgreSQL with CHARLA_SECRET and S3 set, nothing else creates the data dir (issue 26).
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(infoFile, JSON.stringify({ url, pid: process.pid, store: app.store.kind }), { mode: 0o600 });

  if (!options.seed) demoBotId = await findDemoBotId(app);
  const demoOwner = await findOwnerByEmail(app.store.db, DEMO_EMAIL);
  const lines = [
    '',
    `  Charla is running at ${url}  (${app.store.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}, ready in ${Date.now() - started} ms)`,
    `  Public site:     ${url}/  (Facebots: ${url}/facebots)`,
    `  Dashboard:       ${url}/login`,
    `  API docs:        ${url}/api/docs`,
  ];
  if (demoBotId) {
    lines.push(
      `  Demo bot:        ${DEMO_BOT_NAME}  id ${demoBotId}`,
      `  Try it:          curl -s ${url}/api/chatbot-message/${demoBotId} -H 'content-type: application/json' -d '{"userMessage":"¿Tenéis la carta?"}'`,
      `  Or in a terminal: npx charla chat ${demoBotId}`,
      `  Its IALanding:   ${url}/ialanding/ialanding-el-pato-pepe`,
    );
  }
  if (demoOwner) lines.push(`  Demo owner:      ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  lines.push(
    app.engine.offline
      ? '  LLM:             offline responder (set OPENAI_BASE_URL or OPENAI_API_KEY for real replies)'
      : `  LLM:             ${config.llm.model}${config.llm.baseURL ? ` at ${config.llm.baseURL}` : ''}`,
    // The optional servers of the voice and web-search plugins (README "Voice and search").
    `  Voice, search:   hearing ${process.env.CHARLA_STT_BASE_URL ? 'on' : 'off'}, speaking ${process.env.CHARLA_TTS_BASE_URL ? 'on' : 'off'}, web search ${process.env.CHARLA_SEARCH_URL ? 'on' : 'off'} (README: Voice and search)`,
    '',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  // Channels start once the server answers (webhooks need it); a failing bot never stops the server.
  app.startChannels().catch((err) => log.error({ err }, 'channels failed to start'));
  void app.warmUp();
  if (app.engine.offline) log.warn('no LLM configured: replies come from the offline responder');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    rmSync(infoFile, { force: true });
    await node?.leave();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Registers `serve` and `start`. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('migrate the database, then serve the HTTP API and the stored files')
    .option('-p, --port <port>', 'port to listen on', process.env.PORT ?? '8787')
    .option('-H, --host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
    .action((opts: ServeOptions) => serve(opts));
  program
    .command('start')
    .description('migrate, seed the demo bot El Pato Pepe, and serve (what `npm start` runs)')
    .option('-p, --port <port>', 'port to listen on', process.env.PORT ?? '8787')
    .option('-H, --host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
    .action((opts: ServeOptions) => serve({ ...opts, seed: true }));
}
