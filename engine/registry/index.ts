/**
 * The typed registry (DESIGN.md): channel adapters and feature plugins declare what they are and
 * what they contribute (engine/registry/types.ts); the registry checks them at boot (unique ids,
 * dependencies present, unique tool names) and runs their contributions inside error boundaries,
 * so a failing plugin degrades and logs but never breaks a turn. Registration is explicit:
 * adapters/index.ts and plugins/index.ts are hand-written arrays.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely/migration';
import type { z } from 'zod';
import type { JobHandler, ResolvedDefinition } from '../jobs/index.ts';
import type { Logger } from '../logger.ts';
import type { ChannelAdapter } from './channel-types.ts';
import type {
  CronJob,
  FeaturePlugin,
  OfflineHandler,
  OutboundContext,
  OwnerStoredObject,
  PluginContext,
  PluginContributions,
  PluginEvents,
  PluginGauge,
  PluginJob,
  PluginTool,
  ToolRunner,
} from './plugin-types.ts';
import { createToolRunner } from './tools.ts';
import type { OutboundMessage, ToolCallRecord, TurnBot, TurnContext } from './types.ts';

export * from './channel-types.ts';
export * from './plugin-types.ts';
export { toolDefinitions } from './tools.ts';
export * from './types.ts';

/**
 * Declares a channel adapter; returns its argument (for type inference). `Config` is the stored
 * connection config of its `connections` part; an adapter without one is `ChannelAdapter<never>`.
 */
export function defineChannel<Config = never, Settings = unknown>(
  adapter: ChannelAdapter<Config, Settings>,
): ChannelAdapter<Config, Settings> {
  return adapter;
}

/**
 * Declares a feature plugin: `setup` gets `ctx.settings` typed by its `envSchema`. Returns it as a
 * {@link FeaturePlugin}, ready for the registry's list (no cast).
 */
export function definePlugin<Settings>(plugin: FeaturePlugin<Settings>): FeaturePlugin {
  return plugin as FeaturePlugin;
}

/**
 * Parses settings from the environment with an adapter's or a plugin's schema (issue 25 §2: the one
 * parser). Empty variables count as unset, so `FOO=` in a .env file means "not set".
 * @param owner who the settings are for, in the message (`plugin "billing"`).
 * @throws RegistryError naming each variable that does not parse and why.
 */
export function parseSettings<Settings>(
  owner: string,
  schema: z.ZodType<Settings>,
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(set);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`);
  throw new RegistryError(`${owner} settings: ${problems.join('; ')}`);
}

/**
 * Declares a plugin tool; returns its argument. It exists for type inference: `run` gets the
 * tool's zod input type, and the result fits a plugin's `tools` list.
 */
export function defineTool<Input>(tool: PluginTool<Input>): PluginTool {
  return tool as PluginTool;
}

/** Pairs a job definition with its handler, typed by the definition's data (a plugin's `jobs`). */
export function pluginJob<S extends z.ZodType>(
  definition: ResolvedDefinition<S>,
  handler: JobHandler<z.output<S>>,
): PluginJob {
  return { definition: definition as unknown as ResolvedDefinition, handler: handler as JobHandler<unknown> };
}

/** Thrown at boot when the registered adapters or plugins are inconsistent. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** A function name the OpenAI tools API accepts. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What the middleware chain decided for a turn (see {@link Registry.runMiddleware}). */
export interface MiddlewareDecision {
  /** The follower's text after every rewrite. */
  text: string;
  /** Set when a middleware answered or silenced the turn. */
  stop?:
    | { kind: 'reply'; reply: string; plugin: string }
    | { kind: 'silent'; reason: string; plugin: string };
}

/** A tool with the id of the plugin that contributed it. */
export interface RegisteredTool {
  plugin: string;
  tool: PluginTool;
}

/** The in-process event bus plugins share (issue 27 §1, {@link PluginEvents}). */
class EventBus implements PluginEvents {
  private readonly listeners = new Map<string, Array<(payload: unknown) => Promise<void> | void>>();
  constructor(private readonly log: Logger) {}
  on(name: string, listener: (payload: unknown) => Promise<void> | void): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  async emit(name: string, payload: unknown): Promise<void> {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        await listener(payload);
      } catch (err) {
        this.log.error({ err, event: name }, 'a plugin event listener failed');
      }
    }
  }
}

/** The booted set of adapters and plugin contributions. */
export class Registry {
  readonly adapters = new Map<string, ChannelAdapter>();
  readonly plugins = new Map<string, FeaturePlugin>();
  private readonly contributions = new Map<string, PluginContributions>();
  /** The plugins' events (issue 27 §1), given to each plugin's context as `events`. */
  readonly events: PluginEvents;

  /**
   * Checks ids and dependencies.
   * @throws RegistryError on a duplicate id or a missing dependency.
   */
  constructor(
    adapters: ReadonlyArray<ChannelAdapter>,
    plugins: ReadonlyArray<FeaturePlugin>,
    private readonly log: Logger,
  ) {
    this.events = new EventBus(log);
    for (const a of adapters) {
      if (this.adapters.has(a.id)) throw new RegistryError(`duplicate channel adapter id "${a.id}"`);
      this.adapters.set(a.id, a);
    }
    for (const p of plugins) {
      if (this.plugins.has(p.id)) throw new RegistryError(`duplicate plugin id "${p.id}"`);
      this.plugins.set(p.id, p);
    }
    for (const p of plugins) {
      for (const dep of p.dependencies ?? []) {
        if (!this.plugins.has(dep))
          throw new RegistryError(`plugin "${p.id}" needs plugin "${dep}", which is not registered`);
      }
    }
  }

  /**
   * The adapter that reaches followers of a conversation channel: the adapter of that id, or the
   * one that declares it in `alsoServes` (issue 27 §3: `ialanding` → web); undefined when none.
   */
  adapterFor(channel: string): ChannelAdapter | undefined {
    const own = this.adapters.get(channel);
    if (own) return own;
    for (const a of this.adapters.values()) if (a.alsoServes?.includes(channel)) return a;
    return undefined;
  }

  /** Plugins in dependency order (a plugin after the plugins it depends on). */
  ordered(): FeaturePlugin[] {
    const out: FeaturePlugin[] = [];
    const seen = new Set<string>();
    const visit = (p: FeaturePlugin, path: string[]) => {
      if (seen.has(p.id)) return;
      if (path.includes(p.id))
        throw new RegistryError(`plugins depend on each other in a cycle: ${[...path, p.id].join(' → ')}`);
      for (const dep of p.dependencies ?? []) visit(this.plugins.get(dep)!, [...path, p.id]);
      seen.add(p.id);
      out.push(p);
    };
    for (const p of this.plugins.values()) visit(p, []);
    return out;
  }

  /** Every plugin's migrations, in dependency order (engine/store/migrate.ts applies them). */
  migrations(): Array<{ id: string; migrations: Record<string, Migration> }> {
    return this.ordered()
      .filter((p) => p.migrations && Object.keys(p.migrations).length > 0)
      .map((p) => ({ id: p.id, migrations: p.migrations! }));
  }

  /**
   * Runs every plugin's `setup` in dependency order with its settings (its `envSchema` over the
   * context's `env`, {@link parseSettings}) and its own context.
   * @param context builds a plugin's context (its child logger, `send`, …) without `settings`
   *   and `events` (the registry's own bus).
   * @throws RegistryError when a plugin's settings do not parse, or two tools share a name.
   */
  async setup(context: (plugin: FeaturePlugin) => Omit<PluginContext, 'settings' | 'events'>): Promise<void> {
    const toolNames = new Map<string, string>();
    for (const p of this.ordered()) {
      const ctx = context(p);
      const settings = p.envSchema ? parseSettings(`plugin "${p.id}"`, p.envSchema, ctx.env) : undefined;
      const contributions = await p.setup({ ...ctx, settings, events: this.events });
      for (const tool of contributions.tools ?? []) {
        if (!TOOL_NAME.test(tool.name))
          throw new RegistryError(`plugin "${p.id}" tool name "${tool.name}" must match ${TOOL_NAME}`);
        const other = toolNames.get(tool.name);
        if (other)
          throw new RegistryError(`plugins "${other}" and "${p.id}" both contribute a tool "${tool.name}"`);
        toolNames.set(tool.name, p.id);
      }
      this.contributions.set(p.id, contributions);
    }
  }

  /** Every contribution of one kind, with the id of the plugin that made it. */
  private all<K extends keyof PluginContributions>(
    kind: K,
  ): Array<[string, NonNullable<PluginContributions[K]>]> {
    const out: Array<[string, NonNullable<PluginContributions[K]>]> = [];
    for (const [id, c] of this.contributions) if (c[kind]) out.push([id, c[kind]!]);
    return out;
  }

  /**
   * Runs plugin middleware in order. A `{ text }` rewrites the follower's text for the next
   * middleware and the rest of the turn; the first `{ reply }` or `{ silent }` stops the chain. A
   * throwing middleware is logged and skipped.
   */
  async runMiddleware(turn: TurnContext): Promise<MiddlewareDecision> {
    let text = turn.inbound.text;
    for (const [id, list] of this.all('middleware')) {
      for (const mw of list) {
        try {
          const out = await mw({ ...turn, inbound: { ...turn.inbound, text } });
          if (!out) continue;
          if ('reply' in out) return { text, stop: { kind: 'reply', reply: out.reply, plugin: id } };
          if ('silent' in out) return { text, stop: { kind: 'silent', reason: out.reason, plugin: id } };
          if ('text' in out) text = out.text;
        } catch (err) {
          this.log.error({ err, plugin: id }, 'plugin middleware failed; turn continues without it');
        }
      }
    }
    return { text };
  }

  /** The tools offered to a bot: every plugin tool whose `enabled(bot)` is true (or absent). */
  tools(bot: TurnBot): RegisteredTool[] {
    const out: RegisteredTool[] = [];
    for (const [plugin, list] of this.all('tools')) {
      for (const tool of list) {
        let enabled = true;
        try {
          enabled = tool.enabled ? tool.enabled(bot) : true;
        } catch (err) {
          enabled = false;
          this.log.error({ err, plugin, tool: tool.name }, 'plugin tool enabled() failed; tool left out');
        }
        if (enabled) out.push({ plugin, tool });
      }
    }
    return out;
  }

  /**
   * A runner of this turn's tools that validates input, catches errors (they go back to the model
   * as results) and appends every call to `record`.
   */
  toolRunner(turn: TurnContext, record: ToolCallRecord[]): ToolRunner {
    return createToolRunner(this.tools(turn.bot), turn, record, this.log);
  }

  /** The plugins' offline dialogues, in plugin order. */
  offlineHandlers(): Array<{ plugin: string; handler: OfflineHandler }> {
    return this.all('offline').flatMap(([plugin, list]) => list.map((handler) => ({ plugin, handler })));
  }

  /** Collects the prompt fragments for a bot; a failing fragment is logged and left out, empty ones skipped. */
  async promptFragments(bot: TurnBot): Promise<string[]> {
    const out: string[] = [];
    for (const [id, list] of this.all('promptFragments')) {
      for (const fragment of list) {
        try {
          const text = await fragment(bot);
          if (text.trim()) out.push(text);
        } catch (err) {
          this.log.error({ err, plugin: id }, 'plugin prompt fragment failed; left out');
        }
      }
    }
    return out;
  }

  /** Passes an outgoing message through the plugins' transformers; a failing one is skipped. */
  async transformOutbound(message: OutboundMessage, to: OutboundContext): Promise<OutboundMessage> {
    let current = message;
    for (const [id, list] of this.all('outbound')) {
      for (const transform of list) {
        try {
          current = await transform(current, to);
        } catch (err) {
          this.log.error(
            { err, plugin: id },
            'plugin outbound transformer failed; message sent untransformed',
          );
        }
      }
    }
    return current;
  }

  /** Plugin routes to mount, with their prefix. */
  routes(): Array<{ id: string; plugin: FastifyPluginAsync; prefix: string }> {
    return this.all('routes').map(([id, r]) => ({
      id,
      plugin: r.plugin,
      prefix: r.prefix ?? `/plugins/${id}`,
    }));
  }

  /** Every plugin's job handlers, then the channel adapters' (`plugin` is then `channel:<id>`). */
  jobs(): Array<{ plugin: string; job: PluginJob }> {
    const own = [...this.adapters.values()].flatMap((a) =>
      (a.jobs ?? []).map((job) => ({ plugin: `channel:${a.id}`, job })),
    );
    return [...this.all('jobs').flatMap(([plugin, list]) => list.map((job) => ({ plugin, job }))), ...own];
  }

  /** Every plugin's recurring jobs. */
  cron(): Array<{ plugin: string; job: CronJob }> {
    return this.all('cron').flatMap(([plugin, list]) => list.map((job) => ({ plugin, job })));
  }

  /**
   * The first plugin's speech-to-text server (`transcribe`), or null when no plugin has one: how the
   * engine transcribes owners' audio and video files (issue 30 §1) without a second client.
   */
  transcriber(): NonNullable<PluginContributions['transcribe']> | null {
    return this.all('transcribe')[0]?.[1] ?? null;
  }

  /** Every plugin's `/metrics` gauges (issue 26 §3), in plugin order. */
  gauges(): Array<{ plugin: string; gauge: PluginGauge }> {
    return this.all('metrics').flatMap(([plugin, list]) => list.map((gauge) => ({ plugin, gauge })));
  }

  /**
   * Every plugin's data of an owner (issue 26 §5, `ownerData.export`), by plugin id, in plugin
   * order; plugins without the hook are left out.
   * @throws the first plugin's error (an export missing a plugin's part would be incomplete).
   */
  async exportOwnerData(ownerId: string): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [id, hooks] of this.all('ownerData')) out[id] = await hooks.export(ownerId);
    return out;
  }

  /**
   * Runs every plugin's `ownerData.beforeDelete` before an owner's account is deleted (issue 26 §5).
   * @throws the first plugin's error, so the deletion stops.
   */
  async beforeOwnerDelete(ownerId: string): Promise<void> {
    for (const [, hooks] of this.all('ownerData')) await hooks.beforeDelete?.(ownerId);
  }

  /**
   * Every plugin's stored objects of an owner (`ownerData.storedObjects`, issue 27 §3), with the
   * plugin's id: the export adds them, the account deletion removes them.
   * @throws the first plugin's error.
   */
  async ownerStoredObjects(ownerId: string): Promise<Array<OwnerStoredObject & { plugin: string }>> {
    const out: Array<OwnerStoredObject & { plugin: string }> = [];
    for (const [plugin, hooks] of this.all('ownerData'))
      for (const o of (await hooks.storedObjects?.(ownerId)) ?? []) out.push({ ...o, plugin });
    return out;
  }

  /** Disposes every plugin; errors are logged. */
  async dispose(): Promise<void> {
    for (const [id, dispose] of this.all('dispose')) {
      try {
        await dispose();
      } catch (err) {
        this.log.error({ err, plugin: id }, 'plugin dispose failed');
      }
    }
  }
}
