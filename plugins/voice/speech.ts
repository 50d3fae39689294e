/**
 * Speech servers with OpenAI's audio API (https://platform.openai.com/docs/api-reference/audio),
 * through the `openai` SDK with its own base URL each: `POST /audio/transcriptions` (multipart
 * `file`, `model`, `language` → `{text}`) and `POST /audio/speech` (`{model, input, voice,
 * response_format}` → audio bytes). Self-hosted servers speak the same (speaches / faster-whisper,
 * Kokoro-FastAPI, LocalAI), so one recipe serves them and OpenAI.
 */
import OpenAI, { toFile } from 'openai';
import { z } from 'zod';

/** OpenAI's voices, offered when the server does not list its own (CHARLA_TTS_VOICES). */
export const OPENAI_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
] as const;
/** Longest text spoken, characters: about a minute of speech, so the note stays under 512 KB. */
export const MAX_SPOKEN_CHARS = 1000;

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** What the voice plugin reads from the environment. */
export const VoiceEnv = z.object({
  CHARLA_STT_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  CHARLA_STT_MODEL: z.string().min(1).default('whisper-1'),
  CHARLA_STT_API_KEY: z.string().optional(),
  CHARLA_STT_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  CHARLA_TTS_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  CHARLA_TTS_MODEL: z.string().min(1).default('tts-1'),
  CHARLA_TTS_API_KEY: z.string().optional(),
  CHARLA_TTS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** Comma-separated voice ids the server has (default OpenAI's). */
  CHARLA_TTS_VOICES: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
});
export type VoiceEnv = z.infer<typeof VoiceEnv>;

/** A transcription server. */
export interface Transcriber {
  /**
   * @param audio the recording's bytes (OGG/Opus, MP3, WAV, M4A, WebM…), `mime` its type.
   * @param language two-letter hint (`es`), or undefined to detect.
   * @returns the words heard, trimmed (may be empty for silence).
   * @throws the SDK's error when the server fails or takes longer than its time limit.
   */
  transcribe(audio: Buffer, mime: string | null, language?: string): Promise<string>;
}

/** A speech server. */
export interface Speaker {
  readonly voices: readonly string[];
  /**
   * @returns the spoken text as the server made it (Opus in OGG when the server honours
   *   `response_format: opus`; any audio otherwise: the caller converts it).
   * @throws the SDK's error when the server fails or takes longer than its time limit.
   */
  speak(text: string, voice: string): Promise<Buffer>;
}

const EXTENSIONS: Record<string, string> = {
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/webm': 'webm',
};

/**
 * The client of the OpenAI-compatible speech-to-text (`STT`) or text-to-speech (`TTS`) service:
 * `CHARLA_<service>_BASE_URL` with its own key (else `OPENAI_API_KEY`), its timeout and no retries;
 * null when that base URL is not configured.
 */
function speechClient(env: VoiceEnv, service: 'STT' | 'TTS'): OpenAI | null {
  const baseURL = env[`CHARLA_${service}_BASE_URL`];
  if (!baseURL) return null;
  const apiKey = env[`CHARLA_${service}_API_KEY`] ?? env.OPENAI_API_KEY ?? 'not-needed';
  return new OpenAI({ baseURL, apiKey, timeout: env[`CHARLA_${service}_TIMEOUT_MS`], maxRetries: 0 });
}

/** The transcriber of `CHARLA_STT_BASE_URL`, or null when none is configured. */
export function createTranscriber(env: VoiceEnv): Transcriber | null {
  const client = speechClient(env, 'STT');
  if (!client) return null;
  return {
    async transcribe(audio, mime, language) {
      const type = (mime ?? 'audio/ogg').split(';')[0]!.trim();
      const file = await toFile(audio, `voz.${EXTENSIONS[type] ?? 'ogg'}`, { type });
      const result = await client.audio.transcriptions.create({
        file,
        model: env.CHARLA_STT_MODEL,
        ...(language ? { language } : {}),
      });
      return result.text.trim();
    },
  };
}

/** The speaker of `CHARLA_TTS_BASE_URL`, or null when none is configured. */
export function createSpeaker(env: VoiceEnv): Speaker | null {
  const client = speechClient(env, 'TTS');
  if (!client) return null;
  const voices = env.CHARLA_TTS_VOICES
    ? env.CHARLA_TTS_VOICES.split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [...OPENAI_VOICES];
  return {
    voices,
    async speak(text, voice) {
      const res = await client.audio.speech.create({
        model: env.CHARLA_TTS_MODEL,
        voice,
        input: text.slice(0, MAX_SPOKEN_CHARS),
        response_format: 'opus',
      });
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

/**
 * The part of a reply worth speaking: links, markdown marks and emoji-only lines out, cut at a
 * sentence end before {@link MAX_SPOKEN_CHARS}.
 */
export function spokenText(reply: string): string {
  const plain = reply
    .replace(/https?:\/\/\S+/g, '')
    .replace(/[*_`#>]+/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/[ \t]+/g, ' ')
    .trim();
  if (plain.length <= MAX_SPOKEN_CHARS) return plain;
  const cut = plain.slice(0, MAX_SPOKEN_CHARS);
  const end = Math.max(
    cut.lastIndexOf('. '),
    cut.lastIndexOf('! '),
    cut.lastIndexOf('? '),
    cut.lastIndexOf('\n'),
  );
  return (end > MAX_SPOKEN_CHARS / 2 ? cut.slice(0, end + 1) : cut).trim();
}
