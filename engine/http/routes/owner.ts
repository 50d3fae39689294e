/**
 * Owner routes: configure and save a bot (spec 000 §7), and manage its files (spec 000 §5, §7).
 * Every route takes the owner from the request (engine/http/auth.ts) and reads and writes only
 * that owner's rows; another owner's ids answer 404, so ids are not confirmed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { addFile, FILE_MESSAGES, removeFile, updateFileKeywords } from '../../files.ts';
import {
  BOT_LANGUAGES,
  CATEGORIES,
  DEFAULT_BOT_LANGUAGE,
  DEFAULT_CATEGORY,
  FILE_LIMITS,
  FILE_TYPES,
  STYLES,
} from '../../schemas.ts';
import { publicFileUrl } from '../../storage/index.ts';
import type { Chatbot, ChatbotFile } from '../../store/database.ts';
import {
  findNewestChatbot,
  findOwnedChatbot,
  insertChatbot,
  updateOwnedChatbot,
} from '../../store/queries/chatbots.ts';
import { FILES_CHANNEL } from '../../store/queries/files.ts';
import { requireOwner } from '../auth.ts';
import type { HttpDeps } from '../server.ts';
import { openSse } from '../sse.ts';

/** Spec 000 §5 texts for a save without name or description. */
export const CONFIG_MESSAGES = {
  missingTitle: 'Faltan datos',
  missing: 'Indica el nombre de la empresa y la descripción del bot.',
  missingConfigure: 'Por favor completa al menos el nombre del negocio y la descripción del comportamiento',
} as const;

const ErrorBody = z.object({ error: z.string(), title: z.string().optional() });
const IdResult = z.object({ id: z.string() });

/** Body of `POST /api/save-chatbot` (spec 000 §7). `user_id` is ignored: the owner comes from the session. */
export const SaveChatbotBody = z.object({
  id: z.string().max(100).optional(),
  user_id: z.string().optional(),
  business_name: z.string().max(200).default(''),
  business_description: z.string().max(20_000).default(''),
  chatbot_style: z.enum(STYLES).optional(),
  expectations: z.string().max(10_000).optional(),
  enable_web_search: z.boolean().optional(),
  enable_reservations: z.boolean().optional(),
  selected_voice_id: z.string().max(200).nullable().optional(),
  is_public: z.boolean().optional(),
  category: z.enum(CATEGORIES).optional(),
  idioma: z.enum(BOT_LANGUAGES).optional(),
  timezone: z.string().max(64).optional(),
});

/** Body of `POST /api/configure-chatbot` (spec 000 §7, the earlier-style AI step). */
export const ConfigureChatbotBody = z.object({
  user_id: z.string().optional(),
  businessName: z.string().max(200).default(''),
  businessDescription: z.string().max(20_000).default(''),
  systemPrompt: z.string().max(20_000).optional(),
  chatbotStyle: z.enum(STYLES).optional(),
  expectations: z.string().max(10_000).optional(),
});

/** A bot as its owner sees it (secrets left out). */
export function ownerBotView(bot: Chatbot) {
  return {
    id: bot.id,
    business_name: bot.business_name,
    business_description: bot.business_description,
    chatbot_style: bot.chatbot_style,
    expectations: bot.expectations,
    system_prompt: bot.system_prompt,
    enable_audio: bot.enable_audio,
    enable_web_search: bot.enable_web_search,
    enable_reservations: bot.enable_reservations,
    telegram_username: bot.telegram_username,
    telegram_connected: Boolean(bot.telegram_token),
    whatsapp_number: bot.whatsapp_number,
    is_public: bot.is_public,
    category: bot.category,
    idioma: bot.idioma,
    selected_voice_id: bot.selected_voice_id,
    responses_count: bot.responses_count,
    likes_count: bot.likes_count,
    charla_key: bot.charla_key,
    web_enabled: bot.web_enabled,
    timezone: bot.timezone,
    created_at: new Date(bot.created_at).toISOString(),
  };
}

const FileRecord = z.object({
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

export const ownerRoutes: FastifyPluginAsyncZod<HttpDeps> = async (app, deps) => {
  const owner = (req: Parameters<typeof requireOwner>[0]) => requireOwner(req, deps);
  const fileView = (f: ChatbotFile): z.infer<typeof FileRecord> => ({
    id: f.id,
    chatbot_id: f.chatbot_id,
    file_name: f.file_name,
    file_type: f.file_type,
    keyword: f.keyword,
    context: f.context,
    file_url: f.file_url,
    publicUrl: publicFileUrl(f.file_url, deps.baseUrl()),
    mime_type: f.mime_type,
    size_bytes: Number(f.size_bytes),
    created_at: new Date(f.created_at).toISOString(),
  });

  app.get(
    '/api/my-chatbot',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'The signed-in owner’s newest bot',
        description:
          'Spec 000 §3: the newest chatbot of a user is the one loaded. 404 when the owner has none.',
        tags: ['owner'],
        response: { 200: z.record(z.string(), z.unknown()), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const bot = await findNewestChatbot(deps.db, me.id);
      if (!bot)
        throw new AppError(
          'NOT_FOUND',
          'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!',
        );
      return ownerBotView(bot);
    },
  );

  app.post(
    '/api/save-chatbot',
    {
      config: {
        owner: {
          probe: (a) => ({
            method: 'POST',
            url: '/api/save-chatbot',
            json: { id: a.botId, business_name: 'x', business_description: 'y' },
          }),
        },
      },
      schema: {
        summary: 'Create or update the owner’s bot',
        description:
          'Spec 000 §7. With `id`, updates that bot of the owner (404 when it is not theirs); without, creates one with the spec defaults (is_public true, idioma English, category Empresa o Profesional). Name and description are required (400 "Faltan datos").',
        tags: ['owner'],
        body: SaveChatbotBody,
        response: { 200: IdResult, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const b = req.body;
      const name = b.business_name.trim();
      const description = b.business_description.trim();
      if (!name || !description)
        return reply.code(400).send({ error: CONFIG_MESSAGES.missing, title: CONFIG_MESSAGES.missingTitle });
      const values = {
        business_name: name,
        business_description: description,
        ...(b.chatbot_style !== undefined ? { chatbot_style: b.chatbot_style } : {}),
        ...(b.expectations !== undefined ? { expectations: b.expectations.trim() } : {}),
        ...(b.enable_web_search !== undefined ? { enable_web_search: b.enable_web_search } : {}),
        ...(b.enable_reservations !== undefined ? { enable_reservations: b.enable_reservations } : {}),
        ...(b.selected_voice_id !== undefined ? { selected_voice_id: b.selected_voice_id } : {}),
        ...(b.is_public !== undefined ? { is_public: b.is_public } : {}),
        ...(b.category !== undefined ? { category: b.category } : {}),
        ...(b.idioma !== undefined ? { idioma: b.idioma } : {}),
        ...(b.timezone !== undefined ? { timezone: b.timezone } : {}),
      };
      if (b.id) {
        const bot = await updateOwnedChatbot(deps.db, me.id, b.id, values);
        if (!bot) throw new AppError('NOT_FOUND', 'ID de chatbot no disponible');
        deps.engine.cache.invalidate(bot.id);
        return { id: bot.id };
      }
      const bot = await insertChatbot(deps.db, {
        user_id: me.id,
        category: DEFAULT_CATEGORY,
        idioma: DEFAULT_BOT_LANGUAGE,
        ...values,
      });
      return { id: bot.id };
    },
  );

  app.post(
    '/api/configure-chatbot',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'Configure the AI of the owner’s bot',
        description:
          'Spec 000 §7 (the AI configuration step): sets name, description, style, expectations and system prompt on the owner’s newest bot, creating it when there is none.',
        tags: ['owner'],
        body: ConfigureChatbotBody,
        response: { 200: IdResult, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const b = req.body;
      const name = b.businessName.trim();
      const description = b.businessDescription.trim();
      if (!name || !description) return reply.code(400).send({ error: CONFIG_MESSAGES.missingConfigure });
      const values = {
        business_name: name,
        business_description: description,
        ...(b.chatbotStyle !== undefined ? { chatbot_style: b.chatbotStyle } : {}),
        ...(b.expectations !== undefined ? { expectations: b.expectations.trim() } : {}),
        ...(b.systemPrompt !== undefined ? { system_prompt: b.systemPrompt.trim() || null } : {}),
      };
      const newest = await findNewestChatbot(deps.db, me.id);
      const bot = newest
        ? await updateOwnedChatbot(deps.db, me.id, newest.id, values)
        : await insertChatbot(deps.db, { user_id: me.id, ...values });
      deps.engine.cache.invalidate(bot!.id);
      return { id: bot!.id };
    },
  );

  app.post(
    '/api/chatbot-files',
    {
      config: {
        owner: {
          probe: (a) => ({ method: 'POST', url: '/api/chatbot-files', upload: { chatbotId: a.botId } }),
        },
      },
      schema: {
        summary: 'Upload a file to the owner’s bot',
        description:
          'multipart/form-data with fields `chatbotId`, optional `keyword` and `context`, then one `file` part. Spec 000 §5: formats checked by magic bytes; 10 MB a file (413), 10 files and 100 MB a bot (422), other formats 415, each with the spec’s Spanish text. A rejected upload stores nothing.',
        tags: ['owner'],
        consumes: ['multipart/form-data'],
        response: {
          201: FileRecord,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      if (!req.isMultipart()) throw new AppError('BAD_REQUEST', 'Envía el archivo como multipart/form-data.');
      const fields: Record<string, string> = {};
      let file: { name: string; data: Buffer } | undefined;
      for await (const part of req.parts({
        limits: { fileSize: FILE_LIMITS.maxFileBytes, files: 1, fields: 10 },
      })) {
        if (part.type === 'file') {
          try {
            file = { name: part.filename, data: await part.toBuffer() };
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
              throw new AppError('PAYLOAD_TOO_LARGE', FILE_MESSAGES.tooBig(part.filename));
            }
            throw err;
          }
        } else {
          fields[part.fieldname] = String(part.value ?? '');
        }
      }
      if (!file) throw new AppError('BAD_REQUEST', 'Falta el archivo.');
      const chatbotId = fields.chatbotId ?? fields.chatbot_id;
      if (!chatbotId) throw new AppError('BAD_REQUEST', 'Falta chatbotId.');
      const row = await addFile(deps.db, deps.storage, {
        ownerId: me.id,
        chatbotId,
        originalName: file.name,
        data: file.data,
        ...(fields.keyword !== undefined ? { keyword: fields.keyword } : {}),
        ...(fields.context !== undefined ? { context: fields.context } : {}),
        purpose: fields.file_purpose ?? null,
        onConversionError: (err) =>
          req.log.warn({ err, file: file!.name }, 'conversion failed; the original is stored'),
      });
      deps.engine.cache.invalidate(row.chatbot_id);
      return reply.code(201).send(fileView(row));
    },
  );

  app.get(
    '/api/chatbot-files/events',
    {
      config: {
        owner: { probe: (a) => ({ method: 'GET', url: `/api/chatbot-files/events?chatbotId=${a.botId}` }) },
      },
      schema: {
        summary: 'Live changes of a bot’s files',
        description:
          'Server-Sent Events: a `change` event `{op, fileId}` whenever a file of the owner’s bot is uploaded, edited or deleted, from any Charla process (Postgres NOTIFY). A comment line every 25 s keeps proxies from closing the stream. 404 for another owner’s bot.',
        tags: ['owner'],
        querystring: z.object({ chatbotId: z.string().min(1).max(100) }),
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const bot = await findOwnedChatbot(deps.db, me.id, req.query.chatbotId);
      if (!bot)
        throw new AppError(
          'NOT_FOUND',
          'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!',
        );
      const sse = openSse(reply);
      sse.send('ready', {});
      const unlisten = await deps.listen(FILES_CHANNEL, (payload) => {
        try {
          const change = JSON.parse(payload) as { chatbotId: string; op: string; fileId: string };
          if (change.chatbotId === bot.id) sse.send('change', { op: change.op, fileId: change.fileId });
        } catch {
          // not ours
        }
      });
      const heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), 25_000);
      req.raw.on('close', () => {
        clearInterval(heartbeat);
        void unlisten();
        sse.end();
      });
      return reply;
    },
  );

  app.patch(
    '/api/chatbot-files/:id',
    {
      config: {
        owner: {
          probe: (a) => ({
            method: 'PATCH',
            url: `/api/chatbot-files/${a.fileId}`,
            json: { keyword: 'x', context: 'y' },
          }),
        },
      },
      schema: {
        summary: 'Set a file’s keywords and context',
        description:
          'Spec 000 §5: keywords normalised (quotes stripped, one word each, comma-separated); both required ("Campo requerido").',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        body: z.object({ keyword: z.string().max(500), context: z.string().max(5000) }),
        response: { 200: FileRecord, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const row = await updateFileKeywords(deps.db, me.id, req.params.id, req.body);
      deps.engine.cache.invalidate(row.chatbot_id);
      return fileView(row);
    },
  );

  app.delete(
    '/api/chatbot-files/:id',
    {
      config: { owner: { probe: (a) => ({ method: 'DELETE', url: `/api/chatbot-files/${a.fileId}` }) } },
      schema: {
        summary: 'Delete a file',
        description:
          'Removes the row, then the stored bytes (a storage failure is only logged, spec 000 §8).',
        tags: ['owner'],
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 204: z.null(), 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const row = await removeFile(deps.db, deps.storage, me.id, req.params.id, (err) =>
        req.log.warn({ err, fileId: req.params.id }, 'stored file could not be removed'),
      );
      deps.engine.cache.invalidate(row.chatbot_id);
      return reply.code(204).send(null);
    },
  );
};
