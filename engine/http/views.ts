/** Response shapes shared by several routes: one schema and one mapping each. */
import { z } from 'zod';
import { FILE_TYPES } from '../schemas.ts';
import { publicFileUrl } from '../storage/index.ts';
import type { ChatbotFile } from '../store/database.ts';

/** A bot's file as the API returns it (`GET /api/chatbot-files`, uploads, edits). */
export const FileRecord = z.object({
  id: z.string(),
  chatbot_id: z.string(),
  file_name: z.string(),
  file_type: z.enum(FILE_TYPES),
  keyword: z.string(),
  context: z.string(),
  file_url: z.string(),
  publicUrl: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  created_at: z.string(),
});
export type FileRecord = z.infer<typeof FileRecord>;

/**
 * The answer to an upload (`POST /api/chatbot-files`): the stored file, and whether its audio or
 * video conversion failed (spec 000 §8: the original is stored then; the dashboard tells the owner
 * it may not play on every channel).
 */
export const UploadedFile = FileRecord.extend({
  conversionFailed: z
    .boolean()
    .describe(
      'True when ffmpeg could not convert the audio (to OGG/Opus) or video (to WebM) and the original was stored.',
    ),
});

/** Maps a stored file to {@link FileRecord}; `baseUrl` makes `publicUrl` absolute when known. */
export function fileRecord(f: ChatbotFile, baseUrl: string | undefined): FileRecord {
  return {
    id: f.id,
    chatbot_id: f.chatbot_id,
    file_name: f.file_name,
    file_type: f.file_type,
    keyword: f.keyword,
    context: f.context,
    file_url: f.file_url,
    publicUrl: publicFileUrl(f.file_url, baseUrl),
    mime_type: f.mime_type,
    size_bytes: Number(f.size_bytes),
    created_at: new Date(f.created_at).toISOString(),
  };
}

/**
 * The signed-in owner as `GET /api/me` returns it: e-mail, profile (plan, expiry), days remaining
 * (spec 001 §3: rounded up, never below 0) and whether the owner counts as paid (spec 000 §4: a
 * paid owner's bot runs; an unpaid one's is paused).
 */
export const OwnerMe = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  plan: z.string().nullable(),
  /** ISO 8601, or null for a profile without expiry. */
  expiresAt: z.string().nullable(),
  daysRemaining: z.number().int().min(0),
  paid: z.boolean(),
  /** A renewal is coming: a subscription id on the profile, or a premium/monthly plan (spec 001 §4). */
  subscribed: z.boolean(),
  /** Issue 26 §6: the owner has the operator role (the dashboard shows /admin). */
  operator: z.boolean(),
});
export type OwnerMe = z.infer<typeof OwnerMe>;

/** A bot as its owner sees it (`GET /api/my-chatbot`): every field but the secrets. */
export const OwnerChatbot = z.object({
  id: z.string(),
  business_name: z.string(),
  business_description: z.string(),
  /** Issue 10 §7: what the IALanding says about the business ('' = taken from the description). */
  public_description: z.string(),
  chatbot_style: z.string(),
  expectations: z.string(),
  system_prompt: z.string().nullable(),
  enable_audio: z.boolean(),
  enable_web_search: z.boolean(),
  enable_reservations: z.boolean(),
  telegram_username: z.string().nullable(),
  /** A Telegram token is stored (the token itself never leaves the server). */
  telegram_connected: z.boolean(),
  whatsapp_number: z.string().nullable(),
  is_public: z.boolean(),
  category: z.string(),
  idioma: z.string(),
  selected_voice_id: z.string().nullable(),
  responses_count: z.number().int(),
  likes_count: z.number().int(),
  charla_key: z.string().nullable(),
  web_enabled: z.boolean(),
  /**
   * The last website (its origin, e.g. `https://tienda.example`) where the widget loaded, or null
   * while it has loaded on none; `widget_seen_at` is when (ISO 8601). Issue 10's first steps.
   */
  widget_origin: z.string().nullable(),
  widget_seen_at: z.string().nullable(),
  timezone: z.string(),
  created_at: z.string(),
});
export type OwnerChatbot = z.infer<typeof OwnerChatbot>;
