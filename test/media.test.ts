/**
 * Uploads converted with real ffmpeg (spec 000 §7, §9): an MP3 is stored as OGG/Opus and an MP4 as
 * WebM (VP9) with its duration and size; a video conversion over its time limit is refused with the
 * spec's text and stores nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFile } from '../engine/files.ts';
import { ffmpegPath, VIDEO_TOO_LONG } from '../engine/media.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

/** Makes a small real media file with ffmpeg's test sources. */
function make(dir: string, name: string, args: string[]): Buffer {
  const out = join(dir, name);
  execFileSync(ffmpegPath(), ['-y', '-loglevel', 'error', ...args, out]);
  return readFileSync(out);
}

describe('audio and video conversion on upload', () => {
  let app: TestApp;
  let dir: string;
  let owner: { id: string; token: string };
  let botId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'charla-media-test-'));
    app = await createTestApp('pglite');
    owner = await app.owner('media@example.com');
    const http = await app.http();
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { business_name: 'Radio Bar', business_description: 'Bar con música en directo.' },
    });
    botId = saved.json().id;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = async (name: string, data: Buffer) => {
    const http = await app.http();
    const form = await multipart(
      { chatbotId: botId, keyword: 'x', context: 'y' },
      { field: 'file', name, data },
    );
    return http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  it('stores an MP3 as OGG/Opus', async () => {
    const mp3 = make(dir, 'tono.mp3', [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=1',
      '-c:a',
      'libmp3lame',
    ]);
    expect((await fileTypeFromBuffer(mp3))?.mime).toBe('audio/mpeg');
    const res = await upload('Saludo del bar.mp3', mp3);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      file_type: 'audio',
      file_name: 'Saludo_del_bar.ogg',
      mime_type: 'audio/ogg',
    });
    const stored = readFileSync(join(app.dataDir, 'storage', 'chatbot-files', res.json().file_url));
    expect((await fileTypeFromBuffer(stored))?.mime).toMatch(/^audio\/(ogg|opus)/);
  });

  it('stores an MP4 as WebM (VP9) with its duration and size', async () => {
    const mp4 = make(dir, 'clip.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10:duration=2',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
    ]);
    const res = await upload('clip.mp4', mp4);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ file_type: 'video', file_name: 'clip.webm', mime_type: 'video/webm' });
    const row = await app.store.db
      .selectFrom('chatbot_files')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ video_codec: 'vp9', video_width: 320, video_height: 240 });
    expect(row.video_duration).toBeCloseTo(2, 0);
  });

  it('refuses a video whose conversion takes too long, storing nothing', async () => {
    const mp4 = make(dir, 'long.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x480:rate=25:duration=5',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
    ]);
    const before = await app.store.db.selectFrom('chatbot_files').select('id').execute();
    await expect(
      addFile(app.store.db, app.storage, {
        ownerId: owner.id,
        chatbotId: botId,
        originalName: 'long.mp4',
        data: mp4,
        videoTimeoutMs: 50,
      }),
    ).rejects.toThrow(VIDEO_TOO_LONG);
    expect(await app.store.db.selectFrom('chatbot_files').select('id').execute()).toHaveLength(before.length);
  });
});
