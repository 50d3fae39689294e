/**
 * The first schema: owners, user_profiles, chatbots, chatbot_files, followers,
 * conversation_messages and ialandings, with the spec's column names and defaults
 * (000 §3 and §9, 001 §3): is_public true, idioma English, category Empresa o Profesional.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE owners (
      id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX owners_email_key ON owners (lower(email));

    CREATE TABLE user_profiles (
      user_id text PRIMARY KEY REFERENCES owners(id) ON DELETE CASCADE,
      full_name text,
      plan text NOT NULL DEFAULT 'free',
      expires_at timestamptz,
      stripe_subscription_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE chatbots (
      id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
      user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
      business_name text NOT NULL,
      business_description text NOT NULL,
      chatbot_style text NOT NULL DEFAULT 'casual',
      expectations text NOT NULL DEFAULT '',
      system_prompt text,
      files_list jsonb,
      enable_audio boolean NOT NULL DEFAULT false,
      enable_web_search boolean NOT NULL DEFAULT false,
      enable_reservations boolean NOT NULL DEFAULT false,
      telegram_token text,
      telegram_username text,
      phone_number text,
      meta_verified boolean NOT NULL DEFAULT false,
      meta_business_account_id text,
      meta_token text,
      whatsapp_number text,
      is_public boolean NOT NULL DEFAULT true,
      category text NOT NULL DEFAULT 'Empresa o Profesional',
      idioma text NOT NULL DEFAULT 'English',
      selected_voice_id text,
      responses_count integer NOT NULL DEFAULT 0,
      likes_count integer NOT NULL DEFAULT 0,
      charla_key text UNIQUE,
      web_enabled boolean NOT NULL DEFAULT false,
      timezone text NOT NULL DEFAULT 'Europe/Madrid',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX chatbots_user_newest ON chatbots (user_id, created_at DESC);

    CREATE TABLE chatbot_files (
      id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
      user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      file_name text NOT NULL,
      file_type text NOT NULL CHECK (file_type IN ('image', 'pdf', 'audio', 'video')),
      file_purpose text,
      file_url text NOT NULL,
      keyword text NOT NULL DEFAULT '',
      context text NOT NULL DEFAULT '',
      mime_type text NOT NULL,
      size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
      video_duration real,
      video_width integer,
      video_height integer,
      video_codec text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX chatbot_files_bot_newest ON chatbot_files (chatbot_id, created_at DESC);

    CREATE TABLE followers (
      id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      channel text NOT NULL,
      external_id text NOT NULL,
      username text,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chatbot_id, channel, external_id)
    );

    CREATE TABLE conversation_messages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      channel text NOT NULL,
      user_id text NOT NULL,
      sender text NOT NULL CHECK (sender IN ('user', 'bot')),
      username text,
      text text NOT NULL,
      ai_response boolean NOT NULL DEFAULT false,
      message_id text,
      reply_to bigint REFERENCES conversation_messages(id) ON DELETE CASCADE,
      meta jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX conversation_messages_turn_key
      ON conversation_messages (chatbot_id, channel, message_id) WHERE sender = 'user' AND message_id IS NOT NULL;
    CREATE INDEX conversation_messages_follower
      ON conversation_messages (chatbot_id, channel, user_id, id DESC);
    CREATE INDEX conversation_messages_reply ON conversation_messages (reply_to) WHERE reply_to IS NOT NULL;

    CREATE TABLE ialandings (
      id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
      user_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      business_name text NOT NULL,
      charla_key text,
      slug text NOT NULL UNIQUE,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ialandings_chatbot ON ialandings (chatbot_id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TABLE ialandings;
    DROP TABLE conversation_messages;
    DROP TABLE followers;
    DROP TABLE chatbot_files;
    DROP TABLE chatbots;
    DROP TABLE user_profiles;
    DROP TABLE owners;
  `,
  );
}
