/**
 * The LLM behind a bot: any OpenAI-compatible Chat Completions server through the `openai` SDK
 * (DESIGN.md). Replies are streamed; the SDK applies the time limit and the bounded retries
 * (connection errors, 408, 409, 429 and 5xx, with backoff) before the first token arrives.
 * With plugin tools, the client runs the function calls the model asks for and asks again, for at
 * most {@link MAX_TOOL_ROUNDS} rounds, then requires a plain answer.
 */
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { FunctionToolDefinition } from '../registry/tools.ts';
import type { ChatMessage } from './prompt.ts';

/** Rounds of tool calls in one turn before the model must answer without tools. */
export const MAX_TOOL_ROUNDS = 4;

/** The tools offered on one completion and how to run a call. */
export interface LlmTools {
  definitions: FunctionToolDefinition[];
  /**
   * Runs one call; its result (or error) is sent back to the model as the tool message.
   * Never throws for a tool's own failure (the registry's runner catches it).
   */
  run(name: string, input: unknown): Promise<{ ok: true; output: unknown } | { ok: false; error: string }>;
}

/** Options of one {@link LlmClient.complete}. */
export interface CompleteOptions {
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  /** Function tools the model may call (plugins' tools enabled for the bot). */
  tools?: LlmTools;
}

/** What the engine needs from a language model: one streamed completion. */
export interface LlmClient {
  /** Model name, for logs. */
  readonly model: string;
  /**
   * Completes a chat. Calls `onToken` with each piece of text as it arrives and resolves with
   * the whole reply (the text of every round, when tools were called in between).
   * @throws the SDK's APIError / APIConnectionError / APIConnectionTimeoutError after its retries,
   *   or an Error when the model returns no text.
   */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<string>;
  /** Loads what the first `complete` needs (the SDK), so the first follower does not wait for it. */
  warm?(): Promise<void>;
}

/** Settings of {@link createOpenAiClient}. */
export interface OpenAiSettings {
  baseURL?: string | undefined;
  apiKey: string;
  model: string;
  /** Time limit of one request, ms. */
  timeoutMs: number;
  /** Retries after a failed request. */
  maxRetries: number;
}

/** A tool call as it streams in: pieces of its arguments arrive one delta at a time. */
interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** The result of a tool as the tool message's content. */
function toolContent(result: Awaited<ReturnType<LlmTools['run']>>): string {
  if (!result.ok) return JSON.stringify({ error: result.error });
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? null);
}

/** An {@link LlmClient} on the `openai` SDK. */
export function createOpenAiClient(settings: OpenAiSettings): LlmClient {
  // The SDK is loaded at the first turn, not at start-up (issue 25: cold start); `charla serve`
  // warms it once the port is open (see {@link LlmClient.warm}).
  let client: Promise<OpenAI> | undefined;
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          apiKey: settings.apiKey,
          ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
          timeout: settings.timeoutMs,
          maxRetries: settings.maxRetries,
        }),
    ));
  return {
    async warm() {
      await sdk();
    },
    model: settings.model,
    async complete(messages, options = {}) {
      const conversation: ChatCompletionMessageParam[] = [...messages];
      const tools = options.tools && options.tools.definitions.length > 0 ? options.tools : undefined;
      let text = '';
      for (let round = 0; ; round++) {
        const offerTools = tools !== undefined;
        // After MAX_TOOL_ROUNDS the tools stay declared (the history refers to them) but the
        // model must answer in words.
        const mustAnswer = round >= MAX_TOOL_ROUNDS;
        const stream = await (await sdk()).chat.completions.create(
          {
            model: settings.model,
            messages: conversation,
            stream: true,
            ...(offerTools
              ? { tools: tools.definitions, tool_choice: mustAnswer ? ('none' as const) : ('auto' as const) }
              : {}),
          },
          options.signal ? { signal: options.signal } : undefined,
        );
        let roundText = '';
        const calls: PendingCall[] = [];
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta;
          const piece = delta?.content;
          if (piece) {
            // Text of an earlier round and this one are separate paragraphs of one reply.
            if (!roundText && text) {
              text = `${text.trimEnd()}\n\n`;
              options.onToken?.('\n\n');
            }
            roundText += piece;
            text += piece;
            options.onToken?.(piece);
          }
          for (const call of delta?.tool_calls ?? []) {
            calls[call.index] ??= { id: '', name: '', args: '' };
            const pending = calls[call.index]!;
            if (call.id) pending.id = call.id;
            if (call.function?.name) pending.name += call.function.name;
            if (call.function?.arguments) pending.args += call.function.arguments;
          }
        }
        const asked = calls.filter((c) => c.name);
        if (!tools || asked.length === 0 || mustAnswer) break;
        conversation.push({
          role: 'assistant',
          content: roundText || null,
          tool_calls: asked.map((c, i) => ({
            id: c.id || `call_${round}_${i}`,
            type: 'function' as const,
            function: { name: c.name, arguments: c.args || '{}' },
          })),
        });
        // Calls run one after another, in the model's order: a booking may depend on a lookup.
        for (const [i, c] of asked.entries()) {
          let input: unknown;
          let result: Awaited<ReturnType<LlmTools['run']>>;
          try {
            input = c.args ? JSON.parse(c.args) : {};
            result = await tools.run(c.name, input);
          } catch {
            result = { ok: false, error: `The arguments of ${c.name} are not valid JSON.` };
          }
          conversation.push({
            role: 'tool',
            tool_call_id: c.id || `call_${round}_${i}`,
            content: toolContent(result),
          });
        }
      }
      if (!text.trim()) throw new Error('the LLM returned an empty reply');
      return text;
    },
  };
}

/**
 * The same client, telling `observe` how each completion ended and how long it took, ms (the
 * metrics, engine/metrics.ts `charla_llm_duration_seconds`).
 */
export function observedLlm(
  client: LlmClient,
  observe: (outcome: 'ok' | 'error', ms: number) => void,
): LlmClient {
  return {
    model: client.model,
    ...(client.warm ? { warm: () => client.warm!() } : {}),
    async complete(messages, options) {
      const started = performance.now();
      try {
        const text = await client.complete(messages, options);
        observe('ok', performance.now() - started);
        return text;
      } catch (err) {
        observe('error', performance.now() - started);
        throw err;
      }
    },
  };
}
