/**
 * `charla migrate`, `charla seed --demo`, `charla bots …`, `charla files …`, `charla owners …`.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { deleteAccount } from '../../engine/accounts.ts';
import { applyAuthSchema, createAuth } from '../../engine/auth/index.ts';
import { createSessionToken, upsertOwnerWithPassword } from '../../engine/auth/owners.ts';
import { loadConfig } from '../../engine/config.ts';
import { AppError } from '../../engine/errors.ts';
import { addFile, removeFile } from '../../engine/files.ts';
import { Registry } from '../../engine/registry/index.ts';
import {
  BOT_LANGUAGES,
  type BotLanguage,
  CATEGORIES,
  DEFAULT_BOT_LANGUAGE,
  DEFAULT_CATEGORY,
  DEFAULT_STYLE,
  LANGUAGE_CODES,
  LEGACY_CATEGORIES,
  languageCode,
  PUBLIC_DESCRIPTION_MAX,
  STYLES,
} from '../../engine/schemas.ts';
import { resolveSecret } from '../../engine/secrets.ts';
import { publicFileUrl } from '../../engine/storage/index.ts';
import { openStore } from '../../engine/store/connect.ts';
import { DataDirBusyError } from '../../engine/store/data-dir-lock.ts';
import { migratePlugins, migrateToLatest } from '../../engine/store/migrate.ts';
import { findChatbot, insertChatbot, listChatbots } from '../../engine/store/queries/chatbots.ts';
import { findFile, listFiles } from '../../engine/store/queries/files.ts';
import { ensureOwner, findOwnerByEmail, setOwnerOperator } from '../../engine/store/queries/owners.ts';
import { plugins } from '../../plugins/index.ts';
import { seedDemo } from '../seed.ts';
import { CliError, cliLogger, EXIT, output, progress, withApp } from '../util.ts';
import { registerOperatorOwnerCommands } from './owners.ts';
import { registerStorage } from './storage.ts';

/** Accepts a stored label ("Español") or a code/name ("es", "spanish"); returns the stored label. */
function parseLanguage(value: string): BotLanguage {
  if ((BOT_LANGUAGES as readonly string[]).includes(value)) return value as BotLanguage;
  const code = languageCode(value);
  const label = BOT_LANGUAGES.find((l) => LANGUAGE_CODES[l] === code);
  if (code === 'en' && !/^(en|english|ingl[eé]s)$/i.test(value.trim())) {
    throw new CliError(
      `unknown language "${value}"; use one of: ${BOT_LANGUAGES.join(', ')} (or es, en, fr, de, it, ru, hi)`,
      EXIT.usage,
    );
  }
  return label ?? DEFAULT_BOT_LANGUAGE;
}

function parseEnum<T extends string>(what: string, values: readonly T[], value: string): T {
  const found = values.find((v) => v.toLowerCase() === value.trim().toLowerCase());
  if (!found) throw new CliError(`unknown ${what} "${value}"; use one of: ${values.join(', ')}`, EXIT.usage);
  return found;
}

async function migrate(): Promise<void> {
  const config = loadConfig();
  progress(config.databaseUrl ? 'connecting to PostgreSQL' : `opening embedded PGlite in ${config.dataDir}`);
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    if (err instanceof DataDirBusyError) throw new CliError(err.message, EXIT.busy);
    throw err;
  }
  try {
    const core = await migrateToLatest(store.db, (r) =>
      progress(`${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`),
    );
    // Each feature plugin's own tables, after Charla's (docs/plugins.md).
    const pluginMigrations = new Registry([], plugins, cliLogger()).migrations();
    const own = await migratePlugins(store.db, pluginMigrations, (r) =>
      progress(`${r.status === 'Success' ? 'applied' : r.status} ${r.plugin}/${r.migrationName}`),
    );
    const applied = [...core.applied, ...own.applied];
    const auth = createAuth({
      db: store.db,
      baseURL: config.publicUrl,
      secret: resolveSecret(config.dataDir, config.secret),
      mailer: { send: async () => {} },
      log: cliLogger(),
      trialDays: config.trialDays,
      google: config.google,
    });
    progress('checking the accounts schema (better-auth)');
    const authTables = await applyAuthSchema(auth);
    if (authTables.length > 0) progress(`better-auth schema updated: ${authTables.join(', ')}`);
    process.stdout.write(
      applied.length || authTables.length
        ? `Applied ${applied.length} migration(s)${authTables.length ? ` and better-auth changes to ${authTables.join(', ')}` : ''}.\n`
        : 'Database is up to date; nothing to apply.\n',
    );
  } finally {
    await store.close();
  }
}

export function registerData(program: Command): void {
  registerStorage(program);
  program
    .command('migrate')
    .description('apply the database migrations (a second run changes nothing)')
    .action(migrate);

  program
    .command('seed')
    .description('create the demo owner and the demo bot El Pato Pepe with its files (idempotent)')
    .requiredOption('--demo', 'seed the demo data')
    .option('--json', 'print the result as JSON')
    .action((opts: { json?: boolean }) =>
      withApp(async (app) => {
        const outcome = await seedDemo(app, progress);
        output(
          Boolean(opts.json),
          { botId: outcome.bot.id, ownerId: outcome.ownerId, created: outcome.created },
          () =>
            [
              `Demo bot ${outcome.bot.business_name}: ${outcome.bot.id}`,
              outcome.created.bot || outcome.created.files
                ? `Created: ${[outcome.created.owner && 'owner', outcome.created.bot && 'bot', outcome.created.files && `${outcome.created.files} file(s)`].filter(Boolean).join(', ')}.`
                : 'Already seeded; nothing changed.',
            ].join('\n'),
        );
      }),
    );

  const bots = program.command('bots').description('list, show and create bots');
  bots
    .command('list')
    .description('list every bot, newest first')
    .option('--owner <email>', 'only this owner’s bots')
    .option('--json', 'print JSON')
    .action((opts: { owner?: string; json?: boolean }) =>
      withApp(async (app) => {
        const owner = opts.owner ? await findOwnerByEmail(app.store.db, opts.owner) : undefined;
        if (opts.owner && !owner) throw new CliError(`no owner with e-mail ${opts.owner}`, EXIT.notFound);
        const rows = await listChatbots(app.store.db, owner?.id);
        output(Boolean(opts.json), rows, () =>
          rows.length === 0
            ? 'No bots yet. Create one with `charla bots create` or `charla seed --demo`.'
            : rows
                .map(
                  (b) =>
                    `${b.id}  ${b.business_name}  (${b.idioma}, ${b.category}, ${b.responses_count} replies)  ${b.owner_email}`,
                )
                .join('\n'),
        );
      }),
    );
  bots
    .command('show <id>')
    .description('show a bot’s configuration and files')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withApp(async (app, config) => {
        const bot = await findChatbot(app.store.db, id);
        if (!bot) throw new CliError(`no bot with id ${id}`, EXIT.notFound);
        const files = await listFiles(app.store.db, id);
        const { telegram_token: _t, meta_token: _m, ...safe } = bot;
        output(Boolean(opts.json), { ...safe, files }, () =>
          [
            `${bot.business_name}  (${bot.id})`,
            `  style ${bot.chatbot_style} · language ${bot.idioma} · category ${bot.category} · ${bot.is_public ? 'public' : 'private'}`,
            `  description: ${bot.business_description}`,
            bot.public_description ? `  public description: ${bot.public_description}` : '',
            bot.expectations ? `  expectations: ${bot.expectations}` : '',
            `  replies: ${bot.responses_count} · likes: ${bot.likes_count}`,
            `  files (${files.length}):`,
            ...files.map(
              (f) =>
                `    ${f.id}  ${f.file_type.padEnd(5)} ${f.file_name}  [${f.keyword || 'sin palabra clave'}]  ${publicFileUrl(f.file_url, config.publicUrl ?? 'http://127.0.0.1:8787')}`,
            ),
          ]
            .filter(Boolean)
            .join('\n'),
        );
      }),
    );
  bots
    .command('create')
    .description('create a bot for an owner (the owner is created when new)')
    .requiredOption('--owner <email>', 'owner’s e-mail')
    .requiredOption('--name <name>', 'business name')
    .requiredOption('--description <text>', 'business description (the bot’s behaviour)')
    .option('--style <style>', `communication style: ${STYLES.join(', ')}`, DEFAULT_STYLE)
    .option(
      '--language <language>',
      `bot language: ${BOT_LANGUAGES.join(', ')} (or es, en, …)`,
      DEFAULT_BOT_LANGUAGE,
    )
    .option('--category <category>', `category: ${CATEGORIES.join(', ')}`, DEFAULT_CATEGORY)
    .option('--expectations <text>', 'what the owner expects from the bot', '')
    .option(
      '--public-description <text>',
      'what the public IALanding says about the business (default: the description’s first sentences, instructions left out)',
      '',
    )
    .option('--json', 'print JSON')
    .action(
      (opts: {
        owner: string;
        name: string;
        description: string;
        style: string;
        language: string;
        category: string;
        expectations: string;
        publicDescription: string;
        json?: boolean;
      }) =>
        withApp(async (app) => {
          if (!z.email().safeParse(opts.owner).success)
            throw new CliError(`invalid e-mail "${opts.owner}"`, EXIT.usage);
          if (!opts.name.trim() || !opts.description.trim()) {
            throw new CliError(
              'Por favor completa al menos el nombre del negocio y la descripción del comportamiento',
              EXIT.usage,
            );
          }
          if (opts.publicDescription.trim().length > PUBLIC_DESCRIPTION_MAX)
            throw new CliError(
              `--public-description has more than ${PUBLIC_DESCRIPTION_MAX} characters`,
              EXIT.usage,
            );
          const values = {
            business_name: opts.name.trim(),
            business_description: opts.description.trim(),
            chatbot_style: parseEnum('style', STYLES, opts.style),
            idioma: parseLanguage(opts.language),
            category: parseEnum('category', CATEGORIES, LEGACY_CATEGORIES[opts.category] ?? opts.category),
            expectations: opts.expectations.trim(),
            public_description: opts.publicDescription.trim(),
          };
          const { owner } = await ensureOwner(app.store.db, opts.owner);
          const bot = await insertChatbot(app.store.db, { user_id: owner.id, ...values });
          output(
            Boolean(opts.json),
            { id: bot.id, ...values, owner: owner.email },
            () => `Created bot ${bot.business_name}: ${bot.id}`,
          );
        }),
    );

  const files = program.command('files').description('add, list and remove a bot’s files');
  files
    .command('add <botId> <path>')
    .description(
      'attach a file (pdf, image, audio, video, or a .txt, .md or .docx document; 10 MB, 10 files and 100 MB a bot)',
    )
    .requiredOption(
      '--keyword <keywords>',
      'keywords separated by commas or spaces (each word is one keyword), e.g. "menu,carta"',
    )
    .requiredOption('--context <text>', 'what the file is, for the bot')
    .option('--json', 'print JSON')
    .action((botId: string, path: string, opts: { keyword: string; context: string; json?: boolean }) =>
      withApp(async (app) => {
        const bot = await findChatbot(app.store.db, botId);
        if (!bot) throw new CliError(`no bot with id ${botId}`, EXIT.notFound);
        let data: Buffer;
        try {
          data = await readFile(path);
        } catch (err) {
          throw new CliError(`cannot read ${path}: ${(err as Error).message}`, EXIT.usage);
        }
        const row = await addFile(app.store.db, app.storage, {
          ownerId: bot.user_id,
          chatbotId: bot.id,
          originalName: basename(path),
          data,
          keyword: opts.keyword,
          context: opts.context,
        });
        output(
          Boolean(opts.json),
          row,
          () => `Added ${row.file_type} ${row.file_name} (${row.id}) with keywords ${row.keyword}`,
        );
      }),
    );
  files
    .command('list <botId>')
    .description('list a bot’s files, newest first')
    .option('--json', 'print JSON')
    .action((botId: string, opts: { json?: boolean }) =>
      withApp(async (app) => {
        if (!(await findChatbot(app.store.db, botId)))
          throw new CliError(`no bot with id ${botId}`, EXIT.notFound);
        const rows = await listFiles(app.store.db, botId);
        output(Boolean(opts.json), rows, () =>
          rows.length === 0
            ? 'No files.'
            : rows
                .map(
                  (f) =>
                    `${f.id}  ${f.file_type.padEnd(5)} ${f.file_name}  ${Math.ceil(Number(f.size_bytes) / 1024)} KB  [${f.keyword}]`,
                )
                .join('\n'),
        );
      }),
    );
  files
    .command('rm <fileId>')
    .description('remove a file (row and stored bytes)')
    .action((fileId: string) =>
      withApp(async (app) => {
        const file = await findFile(app.store.db, fileId);
        if (!file) throw new CliError(`no file with id ${fileId}`, EXIT.notFound);
        await removeFile(app.store.db, app.storage, file.user_id, fileId);
        process.stdout.write(`Removed ${file.file_name}\n`);
      }),
    );

  const owners = program.command('owners').description('owner accounts');
  owners
    .command('create')
    .description('create a confirmed owner with a password (or set an existing owner’s password)')
    .requiredOption('--email <email>', 'the owner’s e-mail')
    .option(
      '--password <password>',
      'at least 8 characters; a random one is generated and printed when omitted',
    )
    .option('--operator', 'give the owner the operator role (the dashboard’s /admin, issue 26 §6)')
    .option('--json', 'print JSON')
    .action((opts: { email: string; password?: string; operator?: boolean; json?: boolean }) =>
      withApp(async (app) => {
        if (!z.email().safeParse(opts.email).success)
          throw new CliError(`invalid e-mail "${opts.email}"`, EXIT.usage);
        const password = opts.password ?? randomBytes(12).toString('base64url');
        const { id, created } = await upsertOwnerWithPassword(app.auth, opts.email, password);
        if (opts.operator) await setOwnerOperator(app.store.db, id, true);
        output(
          Boolean(opts.json),
          {
            id,
            email: opts.email.toLowerCase(),
            created,
            ...(opts.operator ? { operator: true } : {}),
            ...(opts.password ? {} : { password }),
          },
          () =>
            [
              `${created ? 'Created' : 'Updated'} owner ${opts.email.toLowerCase()} (${id})${opts.operator ? ', an operator' : ''}.`,
              opts.password ? '' : `Password: ${password}`,
            ]
              .filter(Boolean)
              .join('\n'),
        );
      }),
    );
  registerOperatorOwnerCommands(owners);
  owners
    .command('delete <email>')
    .description('delete an owner with their bots, files and sessions')
    .action((email: string) =>
      withApp(async (app) => {
        const owner = await findOwnerByEmail(app.store.db, email);
        if (!owner) throw new CliError(`no owner with e-mail ${email}`, EXIT.notFound);
        // The same deletion as the owner's own (issue 26 §5): rows, channels, stored files.
        const deleted = await deleteAccount(
          { db: app.store.db, storage: app.storage, registry: app.registry, log: app.log },
          owner.id,
        );
        process.stdout.write(`Deleted owner ${owner.email} and ${deleted?.files ?? 0} stored file(s).\n`);
      }),
    );
  owners
    .command('token <email>')
    .description('open a session for an owner and print its token, for API calls (Authorization: Bearer …)')
    .action((email: string) =>
      withApp(async (app) => {
        const owner = await findOwnerByEmail(app.store.db, email);
        if (!owner) throw new AppError('NOT_FOUND', `no owner with e-mail ${email}`);
        process.stdout.write(`${await createSessionToken(app.auth, owner.id)}\n`);
      }),
    );
}
