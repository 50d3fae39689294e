/**
 * Broadcasts (issue 14 §3, issue 27 §5; spec 001 §5, §7 `POST /api/telegram-broadcast`, §8): the
 * owner sees the audience per channel, then sends a text, one of the bot's stored files, or a
 * recorded voice note with an effect to every follower of the bot on Telegram, a WhatsApp linked
 * number and the web, and WhatsApp Cloud followers as the approved MARKETING template `charla_broadcast`
 * once Meta approved it (issue 28 §1; skipped before), leaving out who wrote STOP / BAJA (optout.ts), as a durable job with a row per recipient (sender.ts), with its progress and
 * history. Through the registry: owner routes, a job, its own tables; the voice effect comes from
 * the audio-effects plugin, as a service plugins/index.ts hands over.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requestLanguage } from '../../engine/auth/mail.ts';
import { AppError, BOT_NOT_FOUND } from '../../engine/errors.ts';
import {
  definePlugin,
  type FeaturePlugin,
  type PluginContext,
  pluginJob,
} from '../../engine/registry/index.ts';
import { PRESETS, type RecordingEffects, VOICE_SEND_ERROR } from '../audio-effects/api.ts';
import { AudienceAnswer, BroadcastsAnswer, NO_AUDIENCE_CODE, NOTHING_TO_SEND } from './api.ts';
import { audienceMembers, cloudTemplateApproved, countAudience } from './audience.ts';
import { migrations } from './migrations.ts';
import { optoutMiddleware } from './optout.ts';
import {
  type BroadcastsDb,
  broadcastsDb,
  createBroadcast,
  findBotFile,
  listBroadcasts,
  ownerBroadcasts,
  recipientCounts,
  recipientsByStatus,
} from './queries.ts';
import { broadcastRow } from './rows.ts';
import { broadcastHandler, broadcastJob } from './sender.ts';
import { NO_AUDIENCE } from './texts.ts';

/** The chatbot id in the audience route's path. */
const AudienceParams = z.object({ chatbotId: z.string().min(1).max(200) });

/** Spec 001 §8 Broadcast and voice. */
export const BROADCAST_ERRORS = {
  audio: VOICE_SEND_ERROR,
  file: (error: string) => `Error al enviar archivo: ${error}`,
} as const;

/** What broadcasts need from the audio-effects plugin (its service; issue 25 §5). */
export type BroadcastEffects = RecordingEffects;

function routes(ctx: PluginContext, db: BroadcastsDb, effects: BroadcastEffects): FastifyPluginAsync {
  /** The owner's bot, or 404 with the spec's bot-not-found text (the registry's bot port). */
  const ownedBot = async (
    req: Parameters<PluginContext['requireOwner']>[0],
    chatbotId: string | undefined,
  ) => {
    if (!chatbotId) {
      await ctx.requireOwner(req);
      throw new AppError('NOT_FOUND', BOT_NOT_FOUND);
    }
    return (await ctx.bots.owned(req, chatbotId)).bot;
  };
  return async (app) => {
    app.post(
      '/api/telegram-broadcast',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'POST',
              url: '/api/telegram-broadcast',
              upload: { chatbotId: a.botId, text: 'hola' },
            }),
          },
        },
        schema: {
          summary: 'Sends a broadcast to every follower of a bot',
          description:
            'Spec 001 §5, §7, issue 14 §3, issue 27 §5. multipart/form-data: `chatbotId`, and `text`, or `fileKey` (the id ' +
            'of one of the bot’s stored files), or an `audio` recording with a `preset` (a voice effect; the note goes out ' +
            'as a voice note). To every follower who has not blocked the bot on Telegram (at most 29 messages a second), a ' +
            'WhatsApp linked number (one a second) and the web widget or IALanding (stored in their thread, live on an ' +
            'open widget) and WhatsApp Cloud followers as the approved MARKETING template `charla_broadcast` (the text its ' +
            'parameter; skipped while it is not approved in the bot’s language, issue 28 §1), leaving out followers who ' +
            'opted out (STOP / BAJA), as a durable job. Answers `{broadcastId, total, skipped}` at once; progress comes from ' +
            '`GET /api/broadcasts/:chatbotId`. 400 "Escribe un texto o selecciona un archivo" with nothing to send, ' +
            '"Error al enviar el audio." for a recording that cannot be processed, "Error al enviar archivo: {error}" for ' +
            'an unknown file, `code: "noAudience"` (text in the `x-app-language` or Accept-Language language) when it would ' +
            'reach nobody; 404 for another owner’s bot.',
          tags: ['conversations'],
          consumes: ['multipart/form-data'],
        },
      },
      async (req, reply) => {
        await ctx.requireOwner(req);
        const { fields, recording: audio } = await effects.readRecordingForm(req);
        const bot = await ownedBot(req, fields.chatbotId);
        const text = (fields.text ?? '').trim().slice(0, 4000);
        const fileKey = fields.fileKey?.trim() || null;
        if (!text && !fileKey && !audio?.length) throw new AppError('BAD_REQUEST', NOTHING_TO_SEND);
        if (fileKey && !(await findBotFile(db, bot.id, fileKey)))
          throw new AppError('BAD_REQUEST', BROADCAST_ERRORS.file('no existe ese archivo'));
        let voice: Buffer | null = null;
        let preset: string | null = null;
        if (audio?.length) {
          const p = z.enum(PRESETS).safeParse(fields.preset || 'natural');
          if (!p.success) throw new AppError('BAD_REQUEST', BROADCAST_ERRORS.audio);
          preset = p.data;
          voice = await effects.apply(audio, p.data).catch(() => {
            throw new AppError('BAD_REQUEST', BROADCAST_ERRORS.audio);
          });
        }
        const created = await createBroadcast(
          db,
          { chatbotId: bot.id, text, fileId: fileKey, voice, preset },
          async (trx, id) => {
            await ctx.jobs.send(
              broadcastJob,
              { broadcastId: id, part: 0 },
              { key: `${id}:0`, transaction: trx as never },
            );
          },
        );
        if (!created)
          return reply
            .code(400)
            .send({ error: NO_AUDIENCE[requestLanguage(req.headers)], code: NO_AUDIENCE_CODE });
        return { broadcastId: created.id, total: created.total, skipped: created.skipped };
      },
    );

    app.get<{ Params: { chatbotId: string } }>(
      '/api/broadcasts/:chatbotId',
      {
        config: { owner: { probe: (a) => ({ method: 'GET', url: `/api/broadcasts/${a.botId}` }) } },
        schema: {
          summary: 'A bot’s broadcasts with their progress',
          description:
            'Issue 14 §3: the last 20 broadcasts, newest first: sent, failed (including those whose delivery is unknown ' +
            'after a crash), blocked and remaining, for the progress bar and the history.',
          tags: ['conversations'],
          response: { 200: BroadcastsAnswer },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const rows = await listBroadcasts(db, bot.id);
        const counts = await recipientCounts(
          db,
          rows.map((r) => r.id),
        );
        return {
          broadcasts: rows.map((row) =>
            broadcastRow(
              row,
              counts.filter((c) => c.broadcast_id === row.id),
            ),
          ),
        };
      },
    );

    app.get(
      '/api/broadcasts/:chatbotId/audience',
      {
        config: {
          owner: { probe: (a) => ({ method: 'GET', url: `/api/broadcasts/${a.botId}/audience` }) },
        },
        schema: {
          summary: 'Who a broadcast would reach now, per channel',
          description:
            'Issue 27 §5: the bot’s followers per audience (`telegram`, `whatsapp` for a linked number, `web` for the ' +
            'widget and IALanding visitors, `whatsappCloud`) as `count` (who a broadcast sent now goes to) and ' +
            '`leftOut` (who blocked the bot, `optedOut` who wrote STOP / BAJA; every WhatsApp Cloud follower, ' +
            '`reason: "template"`, while the broadcast template is not approved in the bot’s language: issue 28 §1; ' +
            'once it is, `whatsappCloud` is `sendable`, billed by Meta per marketing message), and `reachable`, the sum of `count` (a broadcast to 0 is refused). The owner’s test ' +
            'chats are never counted. 404 for another owner’s bot.',
          tags: ['conversations'],
          params: AudienceParams,
          response: { 200: AudienceAnswer },
        },
      },
      async (req) => {
        const { chatbotId } = AudienceParams.parse(req.params);
        const bot = await ownedBot(req, chatbotId);
        return countAudience(await audienceMembers(db, bot.id), await cloudTemplateApproved(db, bot.id));
      },
    );
  };
}

/** Builds the broadcasts plugin over the audio effects (`deps.effects`). */
export function createBroadcastsPlugin(deps: { effects: BroadcastEffects }): FeaturePlugin {
  return definePlugin({
    id: 'broadcasts',
    dependencies: ['audio-effects'],
    migrations,
    setup(ctx) {
      const db = broadcastsDb(ctx.db);
      return {
        jobs: [pluginJob(broadcastJob, broadcastHandler(ctx, db))],
        // Issue 28 §1: STOP / BAJA opts a WhatsApp follower out of broadcasts, ALTA / START back in.
        middleware: [optoutMiddleware(db)],
        routes: { prefix: '', plugin: routes(ctx, db, deps.effects) },
        // Issue 26 §5: the owner's broadcasts in their export (the tables cascade on deletion).
        ownerData: { export: async (ownerId) => ({ broadcasts: await ownerBroadcasts(db, ownerId) }) },
        // Issue 26 §3: delivery progress on /metrics, read here (the engine never reads these tables).
        metrics: [
          {
            name: 'charla_broadcast_recipients',
            help: 'Broadcast deliveries by state (the broadcasts plugin)',
            labelNames: ['state'],
            collect: async () =>
              (await recipientsByStatus(db)).map((r) => ({ labels: { state: r.status }, value: r.n })),
          },
        ],
      };
    },
  });
}
