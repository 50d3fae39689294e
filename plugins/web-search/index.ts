/**
 * Web search (issue 15 §3; spec 000 §1 optional features, §3 `enable_web_search`): with the bot's
 * "Búsqueda web" on and a search provider configured, the LLM gets a `web_search` tool backed by a
 * self-hosted SearXNG's JSON API (`CHARLA_SEARCH_URL`; searxng.ts). Results are cut to five titles,
 * links and snippets, cached for 10 minutes, and limited in time (`CHARLA_SEARCH_TIMEOUT_MS`, 5 s): a
 * slow or failing search is told to the model as an error and the turn goes on without it. The
 * prompt asks the model to cite the links it used. Without a provider the tool is never offered and
 * `GET /api/web-search/status` says why, for /configure.
 *
 * Environment: `CHARLA_SEARCH_URL` (e.g. http://127.0.0.1:8888), `CHARLA_SEARCH_TIMEOUT_MS`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { definePlugin, type FeaturePlugin, type PluginTool } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { WebSearchStatus } from './api.ts';
import { SearchError, SearxngClient } from './searxng.ts';

/** What the plugin reads from the environment. */
export const WebSearchEnv = z.object({
  CHARLA_SEARCH_URL: z.string().url().optional(),
  CHARLA_SEARCH_TIMEOUT_MS: z.coerce.number().int().min(200).max(30_000).default(5000),
});

const SearchInput = z.object({
  query: z.string().trim().min(2).max(200).describe('What to look up, in the words a search engine needs.'),
});

/** Builds the web search plugin. */
export function createWebSearchPlugin(): FeaturePlugin {
  return definePlugin({
    id: 'web-search',
    envSchema: WebSearchEnv,
    setup(ctx) {
      const env = ctx.settings;
      const client = env.CHARLA_SEARCH_URL
        ? new SearxngClient(env.CHARLA_SEARCH_URL, env.CHARLA_SEARCH_TIMEOUT_MS)
        : null;
      const routes: FastifyPluginAsync = async (app) => {
        app.get(
          '/api/web-search/status',
          {
            config: { owner: { self: true } },
            schema: {
              summary: 'Whether web search can be switched on',
              description:
                'Issue 15 §3, §4: `available` when a search provider is configured (CHARLA_SEARCH_URL); otherwise `reason` ' +
                '`notConfigured`, and /configure shows the option as unavailable with the reason. Owners only.',
              tags: ['bot'],
              response: { 200: WebSearchStatus },
            },
          },
          async (req) => {
            await ctx.requireOwner(req);
            return { available: client !== null, reason: client ? null : ('notConfigured' as const) };
          },
        );
      };
      if (!client) return { routes: { prefix: '', plugin: routes } };
      const tool: PluginTool<z.infer<typeof SearchInput>> = {
        name: 'web_search',
        description:
          'Searches the web for current or outside facts (news, weather, events, prices elsewhere). Returns up to 5 results ' +
          'with title, url and snippet. Use it only when the business description does not answer the question.',
        input: SearchInput,
        enabled: (bot) => bot.settings.enable_web_search,
        async run(input, call) {
          try {
            return await client.search(input.query, languageCode(call.turn.bot.idioma));
          } catch (err) {
            if (err instanceof SearchError) {
              ctx.log.warn({ err: err.message, chatbotId: call.turn.bot.id }, 'web search failed');
              throw new Error(`Web search unavailable: ${err.message}. Answer without it.`);
            }
            throw err;
          }
        },
      };
      return {
        tools: [tool as PluginTool],
        promptFragments: [
          (bot) =>
            bot.settings.enable_web_search
              ? 'Web search: for current facts or anything outside the business description, call web_search. ' +
                'Answer from the results and cite each source you used with its full link (https://…). ' +
                'Never invent a link; if the search fails or finds nothing, say you could not check it.'
              : '',
        ],
        routes: { prefix: '', plugin: routes },
      };
    },
  });
}

/** The registered web search plugin (plugins/index.ts). */
export const webSearch = createWebSearchPlugin();
