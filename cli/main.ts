/**
 * The `charla` command line (commander). Every command has `--help`; data commands take `--json`.
 * Exit codes: 0 ok, 1 failure, 2 invalid usage or input, 3 not found, 4 embedded database busy.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from './app.ts';
import { registerBilling } from './commands/billing.ts';
import { registerChat } from './commands/chat.ts';
import { registerData } from './commands/data.ts';
import { registerServe } from './commands/serve.ts';
import { EXIT, exitFor } from './util.ts';

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
registerData(program);
registerBilling(program);
registerServe(program);
registerChat(program);

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
