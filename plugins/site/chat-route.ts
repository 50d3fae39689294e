/**
 * The site assistant's route, `POST /api/chat` (spec 001 §2, §7, §8; issue 16 §5): a visitor's
 * question about Charla answered in the page's language by assistant.ts; ten questions a minute per
 * address by default (`siteChatAddress` in engine/rate-limits.ts), then 429 with the spec's error text.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { addressKey, admit, LIMITS } from '../../engine/rate-limits.ts';
import type { LimitsPort, PluginContext } from '../../engine/registry/index.ts';
import { ASSISTANT_ERROR, answer, MAX_QUESTION } from './assistant.ts';
import { SITE_LANGUAGES } from './content/index.ts';

/** `POST /api/chat` body (spec 001 §7: `message`, and a `context` the server ignores). */
export const ChatBody = z.object({
  message: z.string().trim().min(1).max(MAX_QUESTION),
  /** The page's language (spec 001 §4: the assistant answers in it); Spanish by default. */
  lang: z.enum(SITE_LANGUAGES).default('es'),
  /** The visible conversation, oldest first (the server keeps the latest few). */
  history: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(4000) }))
    .max(40)
    .default([]),
  context: z.unknown().optional(),
});

/** `POST /api/chat` answer (spec 001 §7). */
export const ChatAnswer = z.object({ response: z.string() });

/**
 * The route, with the server's model (`llm`, or null: answers from the FAQ), the plugin's logger, the
 * shared rate limits and the trial length the answers quote (days).
 */
export function chatRoute(opts: {
  llm: PluginContext<never>['llm'];
  log: PluginContext<never>['log'];
  limits: LimitsPort;
  trialDays: number;
}): FastifyPluginAsync {
  const { llm, log, limits, trialDays } = opts;
  return async (app) => {
    app.post<{ Body: z.infer<typeof ChatBody> }>(
      '/api/chat',
      {
        config: { public: true },
        bodyLimit: 64 * 1024,
        preHandler: async (req, reply) => {
          if (!(await admit(limits, reply, [{ limit: 'siteChatAddress', key: addressKey(req.ip) }]))) {
            return reply.code(429).send({ error: ASSISTANT_ERROR });
          }
        },
        schema: {
          summary: 'The site assistant',
          description:
            'Spec 001 §2, §7, §8; issue 16 §5. Answers a visitor’s question about Charla in the page’s language (`lang`), ' +
            'with the server’s own product context (prices from the billing plans): the LLM when configured, else the ' +
            `closest FAQ answer. The spec’s \`context\` field is accepted and ignored. 429 past ${LIMITS.siteChatAddress.max} ` +
            'questions a minute from one address.',
          tags: ['site'],
          body: ChatBody,
          response: { 200: ChatAnswer, 429: z.object({ error: z.string() }) },
        },
      },
      async (req) => {
        const controller = new AbortController();
        req.raw.once('close', () => {
          if (req.raw.destroyed && !req.raw.complete) controller.abort();
        });
        const { response } = await answer(
          llm,
          {
            lang: req.body.lang,
            trialDays,
            question: req.body.message,
            history: req.body.history,
            signal: controller.signal,
          },
          (err) =>
            log.warn(
              { err: (err as Error).message },
              'site assistant: the LLM failed; answering from the FAQ',
            ),
        );
        return { response };
      },
    );
  };
}
