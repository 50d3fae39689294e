/**
 * `charla coupons create|list` and `charla owners grant-days` (issue 11): an operator hands out
 * days without Stripe. A grant is recorded like a payment (a row in the owner's history, days
 * added from max(now, expiry)); a running server reconnects the owner's paused channels within
 * its supervisor interval (30 s). While `charla serve` holds the embedded database, the commands
 * send the same operation to its operator API and print the same output (issue 26 §6, cli/remote.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { z } from 'zod';
import { daysRemaining } from '../../engine/auth/profiles.ts';
import { findOwnerByEmail } from '../../engine/store/queries/owners.ts';
import { createCoupon, listCoupons } from '../../plugins/billing/coupons.ts';
import { billingDb, grantDays } from '../../plugins/billing/queries.ts';
import { operatorRequest, withAppOrServer } from '../remote.ts';
import { CliError, EXIT, output } from '../util.ts';

/** A coupon as `coupons create|list --json` prints it (plugins/billing/tables.ts). */
type CouponRow = Awaited<ReturnType<typeof listCoupons>>[number];

/** What `owners grant-days --json` prints (and `POST /api/operator/grant-days` answers). */
interface Granted {
  owner: string;
  days: number;
  expiresAt: string | null;
  daysRemaining: number;
}

/** Most days one coupon or grant may add (ten years). */
const MAX_DAYS = 3650;

/** Parses a whole number of days (1 to 3650) or exits with usage. */
function parseDays(value: string, what = 'days'): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_DAYS)
    throw new CliError(`${what} must be a whole number from 1 to ${MAX_DAYS}, got "${value}"`, EXIT.usage);
  return n;
}

/**
 * Parses `--until`: a date (`2026-12-31`, valid through the end of that day, UTC) or an ISO time.
 * @throws CliError (usage) for anything else.
 */
export function parseUntil(value: string): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const parsed = new Date(dateOnly ? `${value.trim()}T23:59:59.999Z` : value.trim());
  if (Number.isNaN(parsed.getTime()))
    throw new CliError(`--until must be a date like 2026-12-31 or an ISO time, got "${value}"`, EXIT.usage);
  return parsed;
}

/** A coupon code: letters, digits, `-` and `_`, up to 64 characters (stored uppercase). */
const CouponCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/);

export function registerBilling(program: Command): void {
  const coupons = program
    .command('coupons')
    .description(
      'promo coupons that add days (redeemed on /gestion); works while `charla serve` runs (through its operator API)',
    );
  coupons
    .command('create <code>')
    .description('create a coupon; the code is stored uppercase')
    .requiredOption('--days <n>', 'days each redemption adds (1 to 3650)')
    .option('--max <n>', 'how many owners may redeem it (default: unlimited)')
    .option(
      '--until <date>',
      'last day it can be redeemed, e.g. 2026-12-31 (end of that day, UTC) or an ISO time',
    )
    .option('--by <name>', 'who creates it (kept with the coupon)', 'cli')
    .option('--json', 'print JSON')
    .action(
      (code: string, opts: { days: string; max?: string; until?: string; by: string; json?: boolean }) => {
        // Arguments are checked before the database opens.
        if (!CouponCode.safeParse(code).success)
          throw new CliError(`invalid code "${code}": use letters, digits, - and _, up to 64`, EXIT.usage);
        const days = parseDays(opts.days);
        const maxRedemptions = opts.max === undefined ? null : parseDays(opts.max, '--max');
        const validUntil = opts.until === undefined ? null : parseUntil(opts.until);
        const print = (row: CouponRow) =>
          output(Boolean(opts.json), row, () =>
            [
              `Created coupon ${row.code}: ${row.days} day(s)`,
              row.max_redemptions ? `, up to ${row.max_redemptions} owner(s)` : ', unlimited owners',
              row.valid_until ? `, until ${new Date(row.valid_until).toISOString()}` : '',
              '.',
            ].join(''),
          );
        return withAppOrServer(
          async (app) => {
            const row = await createCoupon(billingDb(app.store.db), {
              code,
              days,
              maxRedemptions,
              validUntil,
              createdBy: opts.by,
            });
            if (!row) throw new CliError(`a coupon ${code.toUpperCase()} already exists`, EXIT.usage);
            print(row);
          },
          async (server) => {
            const row = await operatorRequest<CouponRow>(server, 'POST', '/api/operator/coupons', {
              code,
              days,
              maxRedemptions,
              validUntil: validUntil?.toISOString() ?? null,
              createdBy: opts.by,
            }).catch((err: unknown) => {
              // The same message as the direct path for an existing code.
              if (err instanceof CliError && err.exitCode === EXIT.usage && /existe/.test(err.message))
                throw new CliError(`a coupon ${code.toUpperCase()} already exists`, EXIT.usage);
              throw err;
            });
            print(row);
          },
        );
      },
    );
  coupons
    .command('list')
    .description('list coupons with their redemptions, newest first')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const print = (rows: CouponRow[]) =>
        output(Boolean(opts.json), rows, () =>
          rows.length === 0
            ? 'No coupons. Create one with `charla coupons create CODE --days N`.'
            : rows
                .map(
                  (c) =>
                    `${c.code}  ${c.days} day(s)  used ${c.redeemed}/${c.max_redemptions ?? '∞'}  ` +
                    `${c.valid_until ? `until ${new Date(c.valid_until).toISOString()}` : 'no end'}  by ${c.created_by}`,
                )
                .join('\n'),
        );
      return withAppOrServer(
        async (app) => print(await listCoupons(billingDb(app.store.db))),
        async (server) => print(await operatorRequest<CouponRow[]>(server, 'GET', '/api/operator/coupons')),
      );
    });

  const owners = program.commands.find((c) => c.name() === 'owners') ?? program.command('owners');
  owners
    .command('grant-days <email> <days>')
    .description(
      'add days to an owner (recorded in their history like a payment); works while `charla serve` runs',
    )
    .option('--note <text>', 'why (shown in the owner’s history)', 'operator grant')
    .option('--json', 'print JSON')
    .action((email: string, daysText: string, opts: { note: string; json?: boolean }) => {
      const days = parseDays(daysText);
      const print = (granted: Granted) =>
        output(
          Boolean(opts.json),
          granted,
          () =>
            `Added ${days} day(s) to ${granted.owner}: ${granted.daysRemaining} day(s) left, until ${granted.expiresAt}. ` +
            'A running server reconnects their paused channels within a minute.',
        );
      return withAppOrServer(
        async (app) => {
          const owner = await findOwnerByEmail(app.store.db, email);
          if (!owner) throw new CliError(`no owner with e-mail ${email}`, EXIT.notFound);
          const now = new Date();
          const outcome = await grantDays(billingDb(app.store.db), {
            key: `grant:${randomUUID()}`,
            userId: owner.id,
            kind: 'grant',
            days,
            source: opts.note,
            now,
          });
          print({
            owner: owner.email,
            days,
            expiresAt: outcome.expiresAt?.toISOString() ?? null,
            daysRemaining: daysRemaining({ plan: null, expires_at: outcome.expiresAt }, now),
          });
        },
        async (server) => {
          if (!z.email().safeParse(email).success)
            throw new CliError(`no owner with e-mail ${email}`, EXIT.notFound);
          const granted = await operatorRequest<Granted>(server, 'POST', '/api/operator/grant-days', {
            email,
            days,
            note: opts.note,
          }).catch((err: unknown) => {
            if (err instanceof CliError && err.exitCode === EXIT.notFound)
              throw new CliError(`no owner with e-mail ${email}`, EXIT.notFound);
            throw err;
          });
          print(granted);
        },
      );
    });
}
