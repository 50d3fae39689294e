/**
 * The owner sends a follower a file from the inbox (issue 27 §3):
 *
 * - `POST /api/conversations/:chatbotId/file`: multipart/form-data `channel`, `userId`, optional
 *   `text`, and either `fileKey` (the id of one of the bot's stored files, as the broadcast bar's
 *   picker lists them) or one `file` part (a new image, PDF, audio or video, at most 10 MB, spec
 *   000 §5). An upload is kept in the file storage as the owner's (owner-files.ts: listed for the
 *   export and the account deletion, removed with the conversation), not among the bot's files.
 *   It goes out as the message's attachment: Telegram and WhatsApp send it natively, the web widget
 *   and the IALanding show it like a bot's file; the bot is paused as after any owner reply.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requestLanguage } from '../../engine/auth/mail.ts';
import { AppError } from '../../engine/errors.ts';
import { detectFormat } from '../../engine/files.ts';
import { readSingleFileUpload } from '../../engine/http/multipart.ts';
import type { OutboundMessage, PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { FILE_LIMITS } from '../../engine/schemas.ts';
import { normalizeFileName, publicFileUrl } from '../../engine/storage/index.ts';
import { ConversationQuery } from './api.ts';
import { OWNER_FILE_TEXTS } from './file-texts.ts';
import { ownerDelivery } from './owner-delivery.ts';
import { storeOwnerFile } from './owner-files.ts';
import type { ConversationsDb } from './queries.ts';
import type { TurnStateCache } from './turn-state.ts';

/** The form's text fields: the follower, an optional text, an optional stored file's id. */
const FileFields = ConversationQuery.extend({
  text: z.string().trim().max(4000).default(''),
  fileKey: z.string().trim().max(100).default(''),
});

/** The route above; `turnState` hears of the pause like after a reply. */
export function fileRoutes(
  ctx: PluginContext,
  db: ConversationsDb,
  turnState: TurnStateCache,
): FastifyPluginAsync {
  const ownedBot = ownedBotOf(ctx);
  const deliver = ownerDelivery(ctx, db, turnState);
  return async (app) => {
    app.post<{ Params: z.infer<typeof BotParams> }>(
      '/api/conversations/:chatbotId/file',
      {
        config: {
          owner: {
            probe: (a: { botId: string }) => ({
              method: 'POST',
              url: `/api/conversations/${a.botId}/file`,
              upload: { channel: 'telegram', userId: '1' },
            }),
          },
        },
        schema: {
          summary: 'The owner sends a file to a follower',
          description:
            'Issue 27 §3: multipart/form-data `channel`, `userId`, optional `text`, and either `fileKey` (one of the bot’s ' +
            'stored files) or a `file` part (image, PDF, audio or video by its bytes, at most 10 MB). It reaches the follower ' +
            'as an attachment (Telegram and WhatsApp natively, the web widget and IALanding like a bot’s file), stored with ' +
            'sender `owner`; the bot stays quiet as after a reply. An upload is kept in the storage (export, account ' +
            'deletion, removed with the conversation). 400 (no or two files, no follower), 404 (unknown stored file), ' +
            '413 (over 10 MB), 415 (format), in the dashboard’s language; otherwise the errors of the reply.',
          tags: ['conversations'],
          params: BotParams,
          consumes: ['multipart/form-data'],
        },
      },
      async (req, reply) => {
        const texts = OWNER_FILE_TEXTS[requestLanguage(req.headers)];
        const bot = await ownedBot(req, req.params.chatbotId);
        const form = await readSingleFileUpload(req, {
          maxBytes: FILE_LIMITS.maxFileBytes,
          tooLarge: texts.tooBig,
          notMultipart: texts.badForm,
        });
        try {
          const fields = FileFields.safeParse(form.fields);
          if (!fields.success) throw new AppError('BAD_REQUEST', texts.badForm);
          const { channel, userId, text, fileKey } = fields.data;
          const upload = form.file;
          if (Boolean(fileKey) === Boolean(upload)) throw new AppError('BAD_REQUEST', texts.oneFile);
          let message: OutboundMessage;
          if (upload) {
            const format = await detectFormat(upload.data, upload.name);
            if (!format)
              throw new AppError('UNSUPPORTED_MEDIA_TYPE', texts.badFormat(upload.name || 'archivo'));
            // A channel that cannot push gets nothing stored: the delivery answers its 409 at once.
            if (ctx.capabilities(channel)?.push !== true)
              return await deliver(bot, channel, userId, { text }, reply, req.log);
            const attachment = await storeOwnerFile(ctx, db, {
              to: { chatbotId: bot.id, channel, chatId: userId },
              ownerId: bot.user_id,
              data: upload.data,
              mime: format.mime,
              name: normalizeFileName(upload.name || 'archivo', format.ext, format.aliases),
              type: format.fileType,
            });
            message = { text, attachment };
          } else {
            const file = await ctx.db
              .selectFrom('chatbot_files')
              .select(['id', 'file_url', 'file_name', 'file_type', 'mime_type'])
              .where('chatbot_id', '=', bot.id)
              .where('id', '=', fileKey)
              .executeTakeFirst();
            if (!file) throw new AppError('NOT_FOUND', texts.unknownFile);
            message = {
              text,
              attachment: {
                url: publicFileUrl(file.file_url, ctx.publicUrl),
                type: file.file_type,
                name: file.file_name,
                mime: file.mime_type,
                fileId: file.id,
                caption: '',
              },
            };
          }
          return await deliver(bot, channel, userId, message, reply, req.log);
        } finally {
          await form.dispose();
        }
      },
    );
  };
}
