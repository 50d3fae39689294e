/**
 * `charla owners list` and `charla owners operator <email> [--off]` (issue 26 §6); the other
 * `owners` commands are in data.ts. `owners list` works while `charla serve` holds the embedded
 * database: it then asks the server's operator API (cli/remote.ts) and prints the same output.
 */
import type { Command } from 'commander';
import { findOwnerByEmail, listOwners, setOwnerOperator } from '../../engine/store/queries/owners.ts';
import type { OperatorOwner } from '../../plugins/billing/operator-routes.ts';
import { operatorRequest, withAppOrServer } from '../remote.ts';
import { CliError, EXIT, output, withApp } from '../util.ts';

/** One line of `owners list` (`--json` prints these). */
interface OwnerLine {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: unknown;
}

/** Adds `list` and `operator` to the `owners` command. */
export function registerOperatorOwnerCommands(owners: Command): void {
  owners
    .command('list')
    .description('list owners; works while `charla serve` runs (through its operator API)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const print = (rows: OwnerLine[]) =>
        output(
          Boolean(opts.json),
          rows,
          () =>
            rows.map((o) => `${o.id}  ${o.email}${o.emailVerified ? '' : '  (not confirmed)'}`).join('\n') ||
            'No owners.',
        );
      return withAppOrServer(
        async (app) =>
          print(
            (await listOwners(app.store.db)).map((o) => ({
              id: o.id,
              email: o.email,
              emailVerified: o.email_verified,
              createdAt: o.created_at,
            })),
          ),
        async (server) =>
          print(
            (await operatorRequest<OperatorOwner[]>(server, 'GET', '/api/operator/owners')).map((o) => ({
              id: o.id,
              email: o.email,
              emailVerified: o.emailVerified,
              createdAt: o.createdAt,
            })),
          ),
      );
    });
  owners
    .command('operator <email>')
    .description('give an owner the operator role (the dashboard’s /admin); --off takes it away')
    .option('--off', 'take the role away')
    .action((email: string, opts: { off?: boolean }) =>
      withApp(async (app) => {
        const owner = await findOwnerByEmail(app.store.db, email);
        if (!owner) throw new CliError(`no owner with e-mail ${email}`, EXIT.notFound);
        await setOwnerOperator(app.store.db, owner.id, !opts.off);
        process.stdout.write(
          `${owner.email} ${opts.off ? 'is no longer an operator' : 'is an operator: /admin in the dashboard'}.\n`,
        );
      }),
    );
}
