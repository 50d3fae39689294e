/**
 * `charla backup` and `charla restore` (issue 26 §5): one archive (tar.gz) of the database and the
 * bot files, and its restore into a new, empty install. The logic is in engine/backup; these
 * commands open the configured store and storage themselves (no channels, no migrations: a backup
 * copies the database as it is, and a restore migrates to the archive's level first).
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import {
  BackupFormatError,
  defaultArchiveName,
  RestoreRefused,
  restoreBackup,
  writeBackup,
} from '../../engine/backup/index.ts';
import { type CharlaConfig, loadConfig } from '../../engine/config.ts';
import { Registry } from '../../engine/registry/index.ts';
import { resolveSecret } from '../../engine/secrets.ts';
import type { Storage } from '../../engine/storage/index.ts';
import { openStorage } from '../../engine/storage/open.ts';
import { openStore, type Store } from '../../engine/store/connect.ts';
import { plugins } from '../../plugins/index.ts';
import { VERSION } from '../app.ts';
import { CliError, cliLogger, EXIT, output, progress } from '../util.ts';

/** Opens the configured database and file storage for `fn`, and closes both afterwards. */
async function withStore<T>(fn: (store: Store, storage: Storage, config: CharlaConfig) => Promise<T>) {
  const config = loadConfig();
  const log = cliLogger();
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: log.child({ component: 'store' }),
  });
  let storage: Storage | undefined;
  try {
    storage = await openStorage(config);
    return await fn(store, storage, config);
  } finally {
    storage?.close?.();
    await store.close();
  }
}

/** The restore's errors as exit codes: a refused target or a bad archive is invalid input. */
function cliErrorOf(err: unknown): unknown {
  if (err instanceof RestoreRefused || err instanceof BackupFormatError)
    return new CliError(err.message, EXIT.usage);
  return err;
}

/** `charla backup [--out <file>]`. */
async function backup(opts: { out?: string; json?: boolean }): Promise<void> {
  const toStdout = opts.out === '-';
  const path = toStdout ? null : resolve(opts.out ?? defaultArchiveName());
  if (path && existsSync(path))
    throw new CliError(`${path} already exists: choose another --out`, EXIT.usage);
  await withStore(async (store, storage, config) => {
    const part = path ? `${path}.part` : null;
    const out: Writable = part ? createWriteStream(part, { flags: 'wx', mode: 0o600 }) : process.stdout;
    try {
      const { trailer } = await writeBackup(
        {
          store,
          storage,
          version: VERSION,
          secret: existingSecret(config),
          onObject: (key) => progress(`file ${key}`),
        },
        out,
      );
      if (part && path) await rename(part, path);
      const rows = Object.values(trailer.rows).reduce((a, b) => a + b, 0);
      const summary = { file: path ?? '-', database: store.kind, ...trailer, totalRows: rows };
      const text = () =>
        `Backed up ${rows} row(s) and ${trailer.objects} file(s) (${trailer.bytes} bytes) to ${path ?? 'standard output'}.`;
      if (toStdout) progress(text());
      else output(Boolean(opts.json), summary, text);
    } catch (err) {
      if (part) await rm(part, { force: true });
      throw err;
    }
  });
}

/** The secret the install already has (CHARLA_SECRET or `<data dir>/secret`), without making one. */
function existingSecret(config: CharlaConfig): string | undefined {
  if (config.secret) return config.secret;
  return existsSync(join(config.dataDir, 'secret')) ? resolveSecret(config.dataDir, undefined) : undefined;
}

/** `charla restore <file>`. */
async function restore(file: string, opts: { json?: boolean; ignoreSecret?: boolean }): Promise<void> {
  const path = file === '-' ? null : resolve(file);
  if (path && !existsSync(path)) throw new CliError(`${path} does not exist`, EXIT.notFound);
  await withStore(async (store, storage, config) => {
    const registry = new Registry([], plugins, cliLogger());
    try {
      const summary = await restoreBackup(
        {
          store,
          storage,
          plugins: registry.migrations(),
          secret: existingSecret(config),
          ignoreSecret: Boolean(opts.ignoreSecret),
          onObject: (key) => progress(`file ${key}`),
        },
        path ? createReadStream(path) : process.stdin,
      );
      // A restore without the secret (--ignore-secret) still needs one from now on.
      resolveSecret(config.dataDir, config.secret);
      const rows = Object.values(summary.trailer.rows).reduce((a, b) => a + b, 0);
      output(
        Boolean(opts.json),
        {
          file: path ?? '-',
          database: store.kind,
          madeOn: summary.manifest.database,
          charlaVersion: summary.manifest.charlaVersion,
          createdAt: summary.manifest.createdAt,
          rows,
          objects: summary.trailer.objects,
          bytes: summary.trailer.bytes,
          migrated: summary.migrated,
          jobsSkipped: summary.jobsSkipped,
        },
        () =>
          [
            `Restored ${rows} row(s) and ${summary.trailer.objects} file(s) (${summary.trailer.bytes} bytes) ` +
              `from a ${summary.manifest.database} backup of ${summary.manifest.createdAt} (Charla ${summary.manifest.charlaVersion}).`,
            summary.jobsSkipped
              ? 'Scheduled jobs were left out: the backup was made with another pg-boss schema version.'
              : '',
          ]
            .filter(Boolean)
            .join('\n'),
      );
    } catch (err) {
      throw cliErrorOf(err);
    }
  });
}

/** Registers `charla backup` and `charla restore`. */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description(
      'write one consistent archive (tar.gz) of the database and the bot files: a snapshot of every table, the scheduled jobs and every stored file',
    )
    .option(
      '--out <file>',
      'where to write it ("-": standard output); default charla-backup-<time>.tar.gz here',
    )
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
The archive is logical (NDJSON rows, not PostgreSQL's files): one made on embedded PGlite restores
onto PostgreSQL and back. It holds password hashes and encrypted bot tokens, but never the secret
they are encrypted with: keep CHARLA_SECRET (or <data dir>/secret) safe, apart from it. On PGlite, stop the
server first (the embedded database is used by one process at a time; exit code 4 otherwise).`,
    )
    .action(backup);
  program
    .command('restore <file>')
    .description(
      'restore an archive made by `charla backup` into an EMPTY database and file storage ("-": standard input)',
    )
    .option(
      '--ignore-secret',
      'restore without the secret the archive was made with (bot tokens must be entered again)',
    )
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Refuses (exit code 2) a database that already has owners or a storage that already has files.
Set CHARLA_SECRET (or copy the old <data dir>/secret) first: the bots' tokens are encrypted with it.
The database is brought to the archive's migration level, the rows and files go in in one
transaction (a failure leaves the target empty), and then the newer migrations run.`,
    )
    .action(restore);
}
