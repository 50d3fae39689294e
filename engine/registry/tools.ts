/**
 * Plugin tools for the LLM's function calling (DESIGN.md; OpenAI Chat Completions `tools`): each
 * tool's zod input becomes the function's JSON Schema, and each call is validated, run inside an
 * error boundary and recorded with the turn. An invalid input or a thrown error goes back to the
 * model as the tool's result, so it can correct itself; it never breaks the turn.
 */
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { PluginTool, ToolRunner } from './plugin-types.ts';
import type { ToolCallRecord, TurnContext } from './types.ts';

/** A function tool as the Chat Completions API takes it. */
export interface FunctionToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The JSON Schema of a tool's input (an object schema, as the API requires). */
function parametersOf(tool: PluginTool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema: _drop, ...rest } = schema;
  if (rest.type !== 'object') return { type: 'object', properties: {}, additionalProperties: false };
  return rest;
}

/**
 * Each tool's definition, built once: plugins contribute their tools at setup and never change them,
 * and turning a zod schema into JSON Schema cost 15 % of the main thread under load (issue 25).
 */
const definitions = new WeakMap<PluginTool, FunctionToolDefinition>();

/** The `tools` array of a Chat Completions request for these tools. */
export function toolDefinitions(tools: ReadonlyArray<{ tool: PluginTool }>): FunctionToolDefinition[] {
  return tools.map(({ tool }) => {
    let definition = definitions.get(tool);
    if (!definition) {
      definition = {
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: parametersOf(tool) },
      };
      definitions.set(tool, definition);
    }
    return definition;
  });
}

/** The message of a thrown value, for the model (never a stack). */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A {@link ToolRunner} over the tools offered on a turn. Calls are numbered in the order they
 * start: the n-th call's idempotency key is `<turnKey>#<n>`.
 */
export function createToolRunner(
  tools: ReadonlyArray<{ plugin: string; tool: PluginTool }>,
  turn: TurnContext,
  record: ToolCallRecord[],
  log: Logger,
): ToolRunner {
  let calls = 0;
  return {
    available: tools.map((t) => t.tool),
    async run(name, input) {
      const n = ++calls;
      const found = tools.find((t) => t.tool.name === name);
      if (!found) {
        const error = `Unknown tool "${name}".`;
        record.push({ name, plugin: '', input, output: error, error: true });
        return { ok: false, error };
      }
      const parsed = found.tool.input.safeParse(input);
      if (!parsed.success) {
        const error = `Invalid input for ${name}: ${z.prettifyError(parsed.error)}`;
        record.push({ name, plugin: found.plugin, input, output: error, error: true });
        return { ok: false, error };
      }
      try {
        const output = await found.tool.run(parsed.data, {
          turn,
          idempotencyKey: `${turn.turnKey}#${n}`,
        });
        record.push({ name, plugin: found.plugin, input: parsed.data, output, error: false });
        return { ok: true, output };
      } catch (err) {
        log.warn({ err, plugin: found.plugin, tool: name }, 'plugin tool failed; the model gets the error');
        const error = messageOf(err);
        record.push({ name, plugin: found.plugin, input: parsed.data, output: error, error: true });
        return { ok: false, error };
      }
    },
  };
}
