/**
 * The LLM behind a bot: any OpenAI-compatible Chat Completions server through the `openai` SDK
 * (DESIGN.md). Replies are streamed; the SDK applies the time limit and the bounded retries
 * (connection errors, 408, 409, 429 and 5xx, with backoff) before the first token arrives.
 */
import OpenAI from 'openai';
import type { ChatMessage } from './prompt.ts';

/** What the engine needs from a language model: one streamed completion. */
export interface LlmClient {
  /** Model name, for logs. */
  readonly model: string;
  /**
   * Completes a chat. Calls `onToken` with each piece of text as it arrives and resolves with
   * the whole reply.
   * @throws the SDK's APIError / APIConnectionError / APIConnectionTimeoutError after its retries.
   */
  complete(
    messages: ChatMessage[],
    options?: { onToken?: (text: string) => void; signal?: AbortSignal },
  ): Promise<string>;
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

/** An {@link LlmClient} on the `openai` SDK. */
export function createOpenAiClient(settings: OpenAiSettings): LlmClient {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  return {
    model: settings.model,
    async complete(messages, options = {}) {
      const stream = await client.chat.completions.create(
        { model: settings.model, messages, stream: true },
        options.signal ? { signal: options.signal } : undefined,
      );
      let text = '';
      for await (const chunk of stream) {
        const piece = chunk.choices[0]?.delta?.content;
        if (piece) {
          text += piece;
          options.onToken?.(piece);
        }
      }
      if (!text.trim()) throw new Error('the LLM returned an empty reply');
      return text;
    },
  };
}
