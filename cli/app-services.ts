/**
 * Pieces cli/app.ts composes the app from: the LLM client the configuration asks for (timed for
 * the metrics), the stored-file accessors the channels and plugins get, and the sign-in origins of
 * a local address.
 */
import type { CharlaConfig } from '../engine/config.ts';
import { createOpenAiClient, type LlmClient, observedLlm } from '../engine/conversation/llm.ts';
import type { Metrics } from '../engine/metrics.ts';
import { MissingFileError, type Storage } from '../engine/storage/index.ts';

/**
 * The LLM: the one a test gives (`given`, null for offline), else an OpenAI-compatible client when
 * configured, else null (the offline responder). Each completion's time goes to `metrics`.
 */
export function llmOf(
  config: CharlaConfig,
  given: LlmClient | null | undefined,
  metrics: Metrics,
): LlmClient | null {
  const llm =
    given !== undefined
      ? given
      : config.llm.enabled
        ? createOpenAiClient({
            baseURL: config.llm.baseURL,
            apiKey: config.llm.apiKey,
            model: config.llm.model,
            timeoutMs: config.llm.timeoutMs,
            maxRetries: config.llm.maxRetries,
          })
        : null;
  return llm && observedLlm(llm, (outcome, ms) => metrics.llmDuration.observe({ outcome }, ms / 1000));
}

/**
 * A stored file by its `file_url`: `filePath` (a local path, local storage only; null for an http
 * address or S3) and `openFile` (a stream from either backend; null for an http address).
 * @throws MissingFileError from `openFile` when the key is not stored (a permanent send error).
 */
export function storedFiles(storage: Storage) {
  const isAddress = (fileUrl: string) => /^https?:\/\//.test(fileUrl);
  return {
    filePath: (fileUrl: string) =>
      isAddress(fileUrl) || !storage.localPath ? null : storage.localPath(fileUrl),
    async openFile(fileUrl: string) {
      if (isAddress(fileUrl)) return null;
      const opened = await storage.get(fileUrl);
      if (!opened) throw new MissingFileError(fileUrl);
      return opened;
    },
  };
}

/** A local address also reached as localhost or 127.0.0.1 (so signing in works from either). */
export function localAliases(url: string | undefined): string[] | undefined {
  if (!url) return undefined;
  const u = new URL(url);
  if (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost') return undefined;
  return ['127.0.0.1', 'localhost'].map((h) => `${u.protocol}//${h}${u.port ? `:${u.port}` : ''}`);
}
