/**
 * A minimal channel adapter (docs/adapters.md): "echo", a fake push channel. A follower's message
 * arrives as `POST /channels/echo/<chatbotId>` with `{ chatId, id, text }`; the adapter parses it
 * and hands it to the engine, which runs the turn, the plugins' transformers and the storage, and
 * calls `send` with the reply. Here `send` only keeps what it was given (a real channel calls its
 * API). test/adapter-minimal.test.ts registers this exact file.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type ChannelContext, defineChannel, type OutboundMessage } from '../../engine/registry/index.ts';

/** The channel id: conversation rows and followers carry it. */
export const ECHO = 'echo';

/** What the echo channel "sent": one entry per `send`, in order. */
export interface EchoSent {
  chatbotId: string;
  chatId: string;
  message: OutboundMessage;
}

/** A follower's message as the echo channel posts it (zod at the boundary). */
const EchoUpdate = z.object({
  chatId: z.string().min(1).max(100),
  /** The channel's message id: the engine answers a repeated id once. */
  id: z.string().min(1).max(200),
  text: z.string().max(4000),
});

/**
 * Creates the echo adapter. `sent` receives every message the engine sends; `typing` counts the
 * "typing…" signals.
 */
export function createEchoAdapter(sent: EchoSent[] = [], typing: string[] = []) {
  let ctx: ChannelContext | undefined;

  // Parse: a webhook route turns the channel's payload into the engine's inbound message.
  const routes: FastifyPluginAsync = async (app) => {
    app.post<{ Params: { chatbotId: string } }>(
      '/:chatbotId',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const update = EchoUpdate.safeParse(req.body);
        if (!update.success || !ctx) return reply.code(400).send({ error: 'not an echo message' });
        await ctx.dispatch(
          {
            chatbotId: req.params.chatbotId,
            channel: ECHO,
            follower: { id: update.data.chatId },
            text: update.data.text,
            messageId: update.data.id,
            // A plain /start gets the bot's greeting from the engine.
            ...(update.data.text === '/start' ? { command: 'start' as const } : {}),
          },
          { deliver: 'send' },
        );
        return { ok: true };
      },
    );
  };

  return defineChannel({
    id: ECHO,
    capabilities: { maxTextLength: 4000, voiceNotes: false, choices: false, streaming: false, push: true },
    async start(context) {
      ctx = context;
    },
    async stop() {},
    // Send: the message is final (transformed); a real channel calls its API here.
    async send(chatbotId, chatId, message) {
      sent.push({ chatbotId, chatId, message });
      return { messageIds: [`${chatId}:${sent.length}`] };
    },
    typing(_chatbotId, chatId) {
      typing.push(chatId);
      return undefined;
    },
    routes,
  });
}
