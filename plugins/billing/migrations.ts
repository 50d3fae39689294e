/**
 * Billing's own tables (docs/plugins.md: a plugin's tables are its own, run with its own migration
 * table `charla_plugin_billing_migrations`). Names are never renamed; add new ones at the end.
 */
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '../../engine/store/sql-migration.ts';

export const migrations: Record<string, Migration> = {
  '202611240000_billing': sqlMigration({
    up: [
      `CREATE TABLE billing_grants (
          id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
          key text NOT NULL UNIQUE,
          user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
          kind text NOT NULL CHECK (kind IN ('trial', 'checkout', 'renewal', 'coupon', 'grant')),
          days integer NOT NULL CHECK (days > 0),
          amount_cents integer,
          currency text,
          source text,
          expires_after timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        )`,
      'CREATE INDEX billing_grants_user ON billing_grants (user_id, created_at)',
      `CREATE TABLE billing_events (
          id text PRIMARY KEY,
          type text NOT NULL,
          created timestamptz NOT NULL,
          received_at timestamptz NOT NULL DEFAULT now(),
          outcome text NOT NULL
        )`,
      `CREATE TABLE billing_subscriptions (
          id text PRIMARY KEY,
          user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
          status text NOT NULL,
          cancel_at_period_end boolean NOT NULL DEFAULT false,
          current_period_end timestamptz,
          event_created timestamptz NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`,
      'CREATE INDEX billing_subscriptions_user ON billing_subscriptions (user_id)',
      `CREATE TABLE billing_coupons (
          id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
          code text NOT NULL UNIQUE CHECK (code = upper(code) AND length(code) BETWEEN 1 AND 64),
          days integer NOT NULL CHECK (days > 0),
          max_redemptions integer CHECK (max_redemptions > 0),
          redeemed integer NOT NULL DEFAULT 0,
          valid_until timestamptz,
          created_by text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          CHECK (max_redemptions IS NULL OR redeemed <= max_redemptions)
        )`,
      `CREATE TABLE billing_coupon_redemptions (
          coupon_id text NOT NULL REFERENCES billing_coupons(id) ON DELETE CASCADE,
          user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (coupon_id, user_id)
        )`,
    ],
    down: [
      'DROP TABLE billing_coupon_redemptions',
      'DROP TABLE billing_coupons',
      'DROP TABLE billing_subscriptions',
      'DROP TABLE billing_events',
      'DROP TABLE billing_grants',
    ],
  }),
};
