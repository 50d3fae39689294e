/**
 * Owner accounts on better-auth (issue 3): the owners table becomes better-auth's user model
 * (name, email_verified, image, updated_at added) and its session, account and verification
 * models get their tables, all with snake_case columns (engine/auth maps the fields). Also the
 * sign-in failure counters that rate-limit password guessing per account and address.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE owners ADD COLUMN name text NOT NULL DEFAULT '';
    ALTER TABLE owners ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
    ALTER TABLE owners ADD COLUMN image text;
    ALTER TABLE owners ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

    CREATE TABLE auth_sessions (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
      token text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      ip_address text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

    CREATE TABLE auth_accounts (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
      account_id text NOT NULL,
      provider_id text NOT NULL,
      access_token text,
      refresh_token text,
      id_token text,
      access_token_expires_at timestamptz,
      refresh_token_expires_at timestamptz,
      scope text,
      password text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_accounts_user ON auth_accounts (user_id);

    CREATE TABLE auth_verifications (
      id text PRIMARY KEY,
      identifier text NOT NULL,
      value text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_verifications_identifier ON auth_verifications (identifier);

    CREATE TABLE sign_in_failures (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      window_started_at timestamptz NOT NULL
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TABLE sign_in_failures;
    DROP TABLE auth_verifications;
    DROP TABLE auth_accounts;
    DROP TABLE auth_sessions;
    ALTER TABLE owners DROP COLUMN updated_at;
    ALTER TABLE owners DROP COLUMN image;
    ALTER TABLE owners DROP COLUMN email_verified;
    ALTER TABLE owners DROP COLUMN name;
  `,
  );
}
