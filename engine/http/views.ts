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
