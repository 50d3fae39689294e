/**
 * What the plugins' owner routes share: the `:chatbotId` params and the owner's bot through the
 * registry's bot port. Part of the plugin kit: any plugin may import it.
 */
import { z } from 'zod';
import type { PluginContext } from './index.ts';

/** The params of a route about one of the owner's bots (`…/:chatbotId/…`). */
export const BotParams = z.object({ chatbotId: z.string().min(1).max(100) });

/** A lookup of the owner's bot: the bot, or 404 with the spec's bot-not-found text. */
export function ownedBotOf(ctx: PluginContext) {
  return async (req: Parameters<PluginContext['requireOwner']>[0], chatbotId: string) =>
    (await ctx.bots.owned(req, chatbotId)).bot;
}
