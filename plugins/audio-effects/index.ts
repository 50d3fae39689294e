/**
 * Voice effects (issue 14 §4; spec 000 §7 `POST /api/apply-audio-effect`, §9 presets): an owner's
 * recording (any format ffmpeg reads: the browser's WebM/Opus or OGG, MP3, WAV, M4A) comes back as
 * a voice note with the chosen effect: OGG/Opus, mono, 48 kHz (what Telegram plays as a voice note),
 * to send to one follower or to broadcast. Through the registry: one owner route.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { readSingleFileForm } from '../../engine/http/multipart.ts';
import { ffmpegPath } from '../../engine/media.ts';
import { definePlugin, type FeaturePlugin, type PluginContext } from '../../engine/registry/index.ts';
import { PROCESSING_ERROR } from './api.ts';

export { PROCESSING_ERROR, VOICE_SEND_ERROR } from './api.ts';

import { FILTERS, PRESETS, type Preset, SAMPLE_RATE } from './presets.ts';

/** Largest recording taken, bytes (10 MB, the attached files' limit, spec 000 §5). */
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;
/** Longest an effect may take, ms. */
export const EFFECT_TIMEOUT_MS = 30_000;

/**
 * Applies a preset to a recording.
 * @returns OGG/Opus bytes, mono, 48 kHz.
 * @throws AppError BAD_REQUEST ("Error procesando el audio") when ffmpeg cannot read or process it.
 */
export async function applyEffect(recording: Buffer, preset: Preset): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'charla-effect-'));
  try {
    const src = join(dir, 'in');
    const dst = join(dir, 'out.ogg');
    await writeFile(src, recording);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      src,
      '-vn',
      '-af',
      `aresample=${SAMPLE_RATE},${FILTERS[preset]}`,
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-c:a',
      'libopus',
      '-b:a',
      '48k',
      '-application',
      'voip',
      '-f',
      'ogg',
      dst,
    ];
    await new Promise<void>((resolve, reject) =>
      execFile(ffmpegPath(), args, { timeout: EFFECT_TIMEOUT_MS }, (err, _out, stderr) =>
        err ? reject(new Error(String(stderr).trim() || err.message)) : resolve(),
      ),
    );
    return await readFile(dst);
  } catch (err) {
    throw Object.assign(new AppError('BAD_REQUEST', PROCESSING_ERROR), { cause: err });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Reads a multipart/form-data request that carries a recording (the recorder's requests: this
 * plugin's, an owner's voice note to a follower, a broadcast): its text fields and its one file.
 * @returns `recording` undefined when no file came.
 * @throws AppError BAD_REQUEST for a request that is not multipart; PAYLOAD_TOO_LARGE ("La grabación
 *   supera los 10 MB.") for a file over {@link MAX_RECORDING_BYTES}.
 */
export async function readRecordingForm(
  req: FastifyRequest,
): Promise<{ fields: Record<string, string>; recording: Buffer | undefined }> {
  const { fields, file } = await readSingleFileForm(req, {
    maxBytes: MAX_RECORDING_BYTES,
    tooLarge: () => 'La grabación supera los 10 MB.',
    notMultipart: 'Envía el audio como multipart/form-data.',
  });
  const recording = file?.data;
  return { fields, recording };
}

function routes(ctx: PluginContext): FastifyPluginAsync {
  return async (app) => {
    app.post(
      '/api/apply-audio-effect',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Applies a voice effect to a recording',
          description:
            'Spec 000 §7, §9; issue 14 §4. multipart/form-data: `file` (a recording, at most 10 MB) and `preset` (' +
            `${PRESETS.join(', ')}). Answers the voice note: audio/ogg (Opus, mono, 48 kHz). 400 "Error procesando el audio" ` +
            'when the recording cannot be read, 400 for an unknown preset, 413 for a recording over 10 MB.',
          tags: ['conversations'],
          consumes: ['multipart/form-data'],
        },
      },
      async (req, reply) => {
        await ctx.requireOwner(req);
        const { fields, recording } = await readRecordingForm(req);
        if (!recording?.length) throw new AppError('BAD_REQUEST', 'Falta el audio.');
        const preset = fields.preset ?? 'natural';
        const parsed = z.enum(PRESETS).safeParse(preset);
        if (!parsed.success) throw new AppError('BAD_REQUEST', `Efecto desconocido: ${preset}.`);
        const voice = await applyEffect(recording, parsed.data);
        return reply.type('audio/ogg').header('cache-control', 'no-store').send(voice);
      },
    );
  };
}

/**
 * The effects as a service for the plugins that make voice notes (voice, broadcasts): plugins/index.ts
 * hands it to them (issue 25 §5: a plugin does not import another plugin's server code). Each
 * consumer declares the part it uses as its own port.
 */
export const audioEffectsService = { apply: applyEffect, readRecordingForm } as const;

/** Builds the audio-effects plugin. */
export function createAudioEffectsPlugin(): FeaturePlugin {
  return definePlugin({
    id: 'audio-effects',
    setup: (ctx) => ({ routes: { prefix: '', plugin: routes(ctx) } }),
  });
}

/** The registered audio-effects plugin (plugins/index.ts). */
export const audioEffects = createAudioEffectsPlugin();
