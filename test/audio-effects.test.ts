/**
 * Voice effects (issue 14 §4) through a running Charla: every preset turns a real recording (the
 * demo's spoken greeting, and a WAV) into a valid voice note, OGG/Opus mono 48 kHz, checked by
 * decoding the whole file with the same ffmpeg (no ffprobe); the effect really changes the sound
 * (its bytes differ from natural's); a broken recording gets the spec's "Error procesando el
 * audio"; owners only.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../engine/media.ts';
import { PRESETS } from '../plugins/audio-effects/presets.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));

/** Decodes a whole file with ffmpeg; returns its audio stream line ("Audio: opus, 48000 Hz, mono, …"). */
function decode(dir: string, name: string, data: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  const res = spawnSync(ffmpegPath(), ['-hide_banner', '-v', 'info', '-i', path, '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  expect(res.status, res.stderr).toBe(0);
  expect(res.stderr).not.toMatch(/Invalid data|Error while decoding/);
  return /Stream #\d+:\d+[^:]*: Audio: ([^\n]+)/.exec(res.stderr)?.[1] ?? '';
}

describe('voice effects', () => {
  let app: TestApp;
  let token: string;
  let dir: string;
  const apply = async (preset: string, data: Buffer, name = 'grabacion.ogg', auth = true) => {
    const form = await multipart({ preset }, { field: 'file', name, data });
    return (await app.http()).inject({
      method: 'POST',
      url: '/api/apply-audio-effect',
      headers: { 'content-type': form.contentType, ...(auth ? { authorization: `Bearer ${token}` } : {}) },
      payload: form.body,
    });
  };

  beforeAll(async () => {
    app = await createTestApp('pglite', { llm: null });
    token = (await app.owner('pepe@example.com')).token;
    dir = mkdtempSync(join(tmpdir(), 'charla-effects-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(PRESETS)('makes a valid OGG/Opus mono 48 kHz voice note with %s', async (preset) => {
    const res = await apply(preset, GREETING);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('audio/ogg');
    const voice = res.rawPayload;
    expect(voice.subarray(0, 4).toString()).toBe('OggS');
    expect(decode(dir, `${preset}.ogg`, voice)).toMatch(/^opus, 48000 Hz, mono/);
    if (preset !== 'natural') {
      const natural = await apply('natural', GREETING);
      expect(voice.equals(natural.rawPayload)).toBe(false);
    }
  });

  it('takes a WAV recording too, and refuses what is not audio with the spec’s text', async () => {
    const wav = join(dir, 'tono.wav');
    spawnSync(ffmpegPath(), [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:duration=1.5',
      wav,
    ]);
    const res = await apply('robot', readFileSync(wav), 'tono.wav');
    expect(res.statusCode, res.body).toBe(200);
    expect(decode(dir, 'robot-wav.ogg', res.rawPayload)).toMatch(/^opus, 48000 Hz, mono/);
    const broken = await apply('robot', Buffer.from('esto no es audio'), 'roto.ogg');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'Error procesando el audio' });
    const unknown = await apply('karaoke', GREETING);
    expect(unknown.statusCode).toBe(400);
    const anonymous = await apply('robot', GREETING, 'g.ogg', false);
    expect(anonymous.statusCode).toBe(401);
  });
});
