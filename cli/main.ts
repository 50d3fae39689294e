/**
 * The `charla` command line (commander). Every command has `--help`; data commands take `--json`.
 * Exit codes: 0 ok, 1 failure, 2 invalid usage or input, 3 not found, 4 embedded database busy.
 *
 * Everything the command writes is private to its user (issue 24 item 6): the umask is 077 before
 * any command runs, so the data dir and its folders come out 0700 and its files (pgdata, storage,
 * secret, outbox, server.json, locks) 0600; a data dir made by an older version is tightened at
 * start, and the files the embedded PGlite writes with modes of its own once the command is done
 * or the server is up ({@link secureDataDir}).
 */
import { Command, CommanderError } from 'commander';
import { loadConfig } from '../engine/config.ts';
import { secureDataDir } from '../engine/secrets.ts';
import { VERSION } from './app.ts';
import { registerBackup } from './commands/backup.ts';
import { registerBilling } from './commands/billing.ts';
import { registerChat } from './commands/chat.ts';
import { registerData } from './commands/data.ts';
import { registerServe } from './commands/serve.ts';
import { EXIT, exitFor } from './util.ts';

// Before anything is written: no file of this process is readable by group or others.
process.umask(0o077);

const program = new Command();
program
  .name('charla')
  .description('Charla: build an AI chatbot for a business and run it on Telegram, WhatsApp and the web.')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride()
  .addHelpText(
    'after',
    `
Data lives in CHARLA_DATA_DIR (default .charla/) on embedded PGlite, or in PostgreSQL when DATABASE_URL is set.
Exit codes: 0 ok, 1 failure, 2 invalid usage or input, 3 not found, 4 embedded database busy.`,
  );
/**
 * Tightens the data dir (engine/secrets.ts {@link secureDataDir}); says so on stderr when it had
 * to (an older version's data dir) or could not. An invalid configuration is left to the command,
 * which reports it.
 */
async function tightenDataDir(always: boolean): Promise<void> {
  let dataDir: string;
  try {
    dataDir = loadConfig().dataDir;
  } catch {
    return;
  }
  try {
    const changed = await secureDataDir(dataDir, { always });
    if (changed > 0 && !always)
      process.stderr.write(
        `charla: made ${dataDir} private to its user (${changed} entries were open to others)\n`,
      );
  } catch (err) {
    process.stderr.write(
      `charla: could not make ${dataDir} private to its user: ${(err as Error).message}\n`,
    );
  }
}
// Before a command opens the data dir, and after it (for `serve`: once the server is up), for the
// files the embedded PGlite writes with modes of its own.
program.hook('preAction', () => tightenDataDir(false));
program.hook('postAction', () => tightenDataDir(true));
registerData(program);
registerBilling(program);
registerServe(program);
registerChat(program);
registerBackup(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  const { message, code } = exitFor(err);
  process.stderr.write(`charla: ${message}\n`);
  process.exit(code);
}
