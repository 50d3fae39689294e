/**
 * An operator without Stripe hands out days (issue 11): `charla coupons create|list` and
 * `charla owners grant-days` as processes on embedded PGlite, with their exit codes; a grant shows
 * in the owner's history like a payment.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = new URL('../bin/charla.js', import.meta.url).pathname;

describe('coupons and grants from the command line', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-billing-cli-'));
  const charla = (...args: string[]) => {
    const {
      OPENAI_API_KEY: _k,
      OPENAI_BASE_URL: _b,
      DATABASE_URL: _d,
      STRIPE_SECRET_KEY: _s,
      ...rest
    } = process.env;
    const res = spawnSync(process.execPath, [BIN, ...args], {
      env: { ...rest, CHARLA_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 90_000,
    });
    return { code: res.status, stdout: res.stdout, stderr: res.stderr };
  };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates and lists coupons, grants days to an owner, and exits with the documented codes', () => {
    expect(charla('migrate').code).toBe(0);
    const created = charla(
      'coupons',
      'create',
      'navidad',
      '--days',
      '15',
      '--max',
      '3',
      '--until',
      '2099-12-31',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      code: 'NAVIDAD',
      days: 15,
      max_redemptions: 3,
      valid_until: '2099-12-31T23:59:59.999Z',
      created_by: 'cli',
    });
    const duplicate = charla('coupons', 'create', 'NAVIDAD', '--days', '1');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    expect(charla('coupons', 'create', 'MAL', '--days', '0').code).toBe(2);
    expect(charla('coupons', 'create', 'MAL', '--days', '1', '--until', 'pronto').code).toBe(2);
    const list = charla('coupons', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/NAVIDAD\s+15 day\(s\)\s+used 0\/3/);

    const owner = charla(
      'owners',
      'create',
      '--email',
      'lola@example.com',
      '--password',
      'contraseña-segura',
    );
    expect(owner.code, owner.stderr).toBe(0);
    const granted = charla('owners', 'grant-days', 'LOLA@example.com', '12', '--note', 'soporte', '--json');
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toMatchObject({
      owner: 'lola@example.com',
      days: 12,
      daysRemaining: 12,
    });
    const again = charla('owners', 'grant-days', 'lola@example.com', '3', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ daysRemaining: 15 });
    expect(charla('owners', 'grant-days', 'nadie@example.com', '3').code).toBe(3);
    expect(charla('owners', 'grant-days', 'lola@example.com', '1.5').code).toBe(2);
  }, 300_000);
});
