/**
 * Voice (issue 15 §1, §2; spec 000 §1 audio replies, §3 `enable_audio`, `selected_voice_id`):
 *
 * - **Hearing**: a follower's voice note or audio with no words is transcribed by the
 *   `CHARLA_STT_BASE_URL` server (OpenAI's `/audio/transcriptions`), and the transcript goes through
 *   the turn as the follower's text; the engine stores it with the audio's reference. Without a
 *   server, or when it fails within its time limit, the engine's "please write" answer stays.
 * - **Speaking**: with the bot's "Respuestas de voz" on, a reply to a follower on a channel that
 *   carries voice notes also goes out as one, spoken by the `CHARLA_TTS_BASE_URL` server in the
 *   owner's voice (`selected_voice_id`), made OGG/Opus mono 48 kHz ≤ 512 KB with ffmpeg. A failing
 *   or slow server leaves the reply as text.
 * - `GET /api/voice/status` (what is available, the voices) and `POST /api/voice/preview` (a sample
 *   in one voice) for /configure.
 *
 * Through the registry only: a middleware, an outbound transformer and owner routes.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { definePlugin, type FeaturePlugin } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { VoiceStatus } from './api.ts';
import { createSpeaker, createTranscriber, type Speaker, spokenText, VoiceEnv } from './speech.ts';

/** Telegram's and WhatsApp's comfortable size for a voice note (issue 15 §2), bytes. */
export const MAX_VOICE_BYTES = 512 * 1024;
/** Media kinds the plugin transcribes. */
const HEARD = new Set(['voice', 'audio']);

/** Sample sentences for the voice preview, in each bot language. */
const PREVIEW: Record<string, string> = {
  es: 'Hola, soy la voz de tu bot. ¿En qué puedo ayudarte?',
  en: 'Hi, I am your bot’s voice. How can I help you?',
  fr: 'Bonjour, je suis la voix de votre bot. Comment puis-je vous aider ?',
  de: 'Hallo, ich bin die Stimme deines Bots. Wie kann ich helfen?',
  it: 'Ciao, sono la voce del tuo bot. Come posso aiutarti?',
  ru: 'Здравствуйте, я голос вашего бота. Чем могу помочь?',
  hi: 'नमस्ते, मैं आपके बॉट की आवाज़ हूँ। मैं आपकी कैसे मदद करूँ?',
};

/**
 * The voice plugin's media port: what it needs from the audio-effects plugin (audio-effects/index.ts
 * `audioEffectsService`, handed over by plugins/index.ts).
 */
export interface VoiceEffects {
  /** Makes any recording an OGG/Opus mono 48 kHz voice note; throws when ffmpeg cannot read it. */
  apply(recording: Buffer, preset: 'natural'): Promise<Buffer>;
}

/** Speaks `text` and makes it a voice note; null when it would be over {@link MAX_VOICE_BYTES}. */
async function voiceNote(
  effects: VoiceEffects,
  speaker: Speaker,
  text: string,
  voice: string,
): Promise<Buffer | null> {
  const spoken = await speaker.speak(text, voice);
  // Whatever the server made (Opus, MP3, WAV), the note is OGG/Opus mono 48 kHz, as Telegram wants.
  const note = await effects.apply(spoken, 'natural');
  return note.length <= MAX_VOICE_BYTES ? note : null;
}

/** Builds the voice plugin over the audio effects (`deps.effects`). */
export function createVoicePlugin(deps: { effects: VoiceEffects }): FeaturePlugin {
  return definePlugin({
    id: 'voice',
    envSchema: VoiceEnv,
    dependencies: ['audio-effects'],
    setup(ctx) {
      const env = ctx.settings;
      const transcriber = createTranscriber(env);
      const speaker = createSpeaker(env);
      const voiceOf = (selected: string | null) =>
        selected && speaker?.voices.includes(selected) ? selected : (speaker?.voices[0] ?? 'alloy');

      const routes: FastifyPluginAsync = async (app) => {
        app.get(
          '/api/voice/status',
          {
            config: { owner: { self: true } },
            schema: {
              summary: 'What the voice features can do on this server',
              description:
                'Issue 15 §4: `hearing` when a transcription server is configured (CHARLA_STT_BASE_URL), `speaking` and ' +
                '`voices` when a speech server is (CHARLA_TTS_BASE_URL); /configure shows "Respuestas de voz" as ' +
                'unavailable otherwise. Owners only.',
              tags: ['bot'],
              response: { 200: VoiceStatus },
            },
          },
          async (req) => {
            await ctx.requireOwner(req);
            return {
              hearing: transcriber !== null,
              speaking: speaker !== null,
              voices: [...(speaker?.voices ?? [])],
            };
          },
        );
        app.post<{ Body: { voice: string; lang?: string } }>(
          '/api/voice/preview',
          {
            config: { owner: { self: true } },
            schema: {
              summary: 'Hear a voice before picking it',
              description:
                'Issue 15 §2: `{voice, lang}` → audio/ogg, a sample sentence in that voice and language (es, en, fr, de, ' +
                'it, ru, hi). 409 `notConfigured` without a speech server; 400 for a voice the server does not have; 502 ' +
                'when the server fails.',
              tags: ['bot'],
              body: z.object({ voice: z.string().min(1).max(100), lang: z.string().max(5).optional() }),
            },
          },
          async (req, reply) => {
            await ctx.requireOwner(req);
            if (!speaker) throw new AppError('CONFLICT', 'No hay servidor de voz configurado.');
            if (!speaker.voices.includes(req.body.voice))
              throw new AppError('BAD_REQUEST', `Voz desconocida: ${req.body.voice}.`);
            try {
              const note = await voiceNote(
                deps.effects,
                speaker,
                PREVIEW[req.body.lang ?? 'es'] ?? PREVIEW.es!,
                req.body.voice,
              );
              if (!note) throw new Error('the sample is too long');
              return reply.type('audio/ogg').header('cache-control', 'no-store').send(note);
            } catch (err) {
              req.log.warn({ err }, 'voice preview failed');
              return reply.code(502).send({ error: 'El servidor de voz no respondió.' });
            }
          },
        );
      };

      return {
        routes: { prefix: '', plugin: routes },
        // Owners' audio and video files are read with the same server (issue 30 §1).
        ...(transcriber ? { transcribe: transcriber.transcribe.bind(transcriber) } : {}),
        middleware: transcriber
          ? [
              async (turn) => {
                if (turn.inbound.text.trim()) return undefined;
                const index = (turn.inbound.attachments ?? []).findIndex((a) => HEARD.has(a.type));
                if (index < 0) return undefined;
                try {
                  const { data, mime } = await turn.media(index);
                  const text = await transcriber.transcribe(
                    data,
                    mime ?? turn.inbound.attachments?.[index]?.mime ?? null,
                    languageCode(turn.bot.idioma),
                  );
                  return text ? { text } : undefined;
                } catch (err) {
                  ctx.log.warn(
                    { err, chatbotId: turn.bot.id },
                    'transcription failed; the follower is asked to write',
                  );
                  return undefined;
                }
              },
            ]
          : [],
        outbound: speaker
          ? [
              async (message, to) => {
                // Only a reply to a follower's message, on a channel that carries voice notes.
                if (
                  !to.bot.settings.enable_audio ||
                  !to.inbound ||
                  !to.capabilities.voiceNotes ||
                  message.voice
                )
                  return message;
                const text = spokenText(message.text);
                if (!text) return message;
                try {
                  const note = await voiceNote(
                    deps.effects,
                    speaker,
                    text,
                    voiceOf(to.bot.settings.selected_voice_id),
                  );
                  return note ? { ...message, voice: { data: note, mime: 'audio/ogg' } } : message;
                } catch (err) {
                  ctx.log.warn({ err, chatbotId: to.bot.id }, 'speech failed; the reply goes as text');
                  return message;
                }
              },
            ]
          : [],
      };
    },
  });
}
