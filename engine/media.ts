/**
 * Audio and video conversion for attached files (spec 000 §3, §7, §9; DESIGN.md): mp3, wav, aac and
 * m4a become OGG/Opus (what Telegram plays as a voice note and every browser plays), and videos
 * other than WebM become WebM (VP9 + Opus), within 30 s. ffmpeg through fluent-ffmpeg: FFMPEG_PATH
 * when set, else the system's `ffmpeg`, else the binary of @ffmpeg-installer/ffmpeg.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { AppError } from './errors.ts';

/** Spec 000 §9: the video conversion time limit, ms. */
export const VIDEO_TIMEOUT_MS = 30_000;
/** Spec 000 §8. */
export const VIDEO_TOO_LONG =
  'La conversión de video tardó demasiado (más de 30 segundos). Intenta con un video más corto.';

let binary: string | undefined;

/** The ffmpeg binary in use (resolved once). */
export function ffmpegPath(): string {
  if (binary) return binary;
  const candidates = [process.env.FFMPEG_PATH, 'ffmpeg'].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['-version'], { stdio: 'ignore' });
      binary = candidate;
      return binary;
    } catch {
      // try the next
    }
  }
  const require = createRequire(import.meta.url);
  binary = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  return binary;
}

/** The prefix of a conversion's work folder in the system's temporary directory. */
const WORK_DIR_PREFIX = 'charla-media-';

/**
 * Removes conversion work folders a killed process left behind (issue 24 §8). A conversion takes
 * at most 30 s (VIDEO_TIMEOUT_MS), so a folder older than 10 minutes belongs to no running
 * conversion of this or any other Charla process on the machine.
 * @returns how many folders were removed; errors (another process removing the same) are ignored.
 */
export async function removeStaleWorkDirs(now = Date.now(), dir = tmpdir()): Promise<number> {
  let removed = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(WORK_DIR_PREFIX)) continue;
    const path = join(dir, name);
    try {
      if (now - (await stat(path)).mtimeMs < 10 * 60_000) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}

/**
 * What a conversion produced: a file in its own work folder (issue 26 §1: a converted video is
 * streamed to storage, never read into memory), removed by `dispose`.
 */
export interface Converted {
  /** The result's path. */
  path: string;
  /** Its size, bytes. */
  size: number;
  /** File extension of the result. */
  ext: 'ogg' | 'webm';
  video?: { duration: number; width: number; height: number; codec: string };
  /** Removes the work folder (and the result). Never throws. */
  dispose(): Promise<void>;
}

/** What a conversion reads: bytes in memory, or a file (an upload spooled to disk). */
export type MediaInput = Uint8Array | { path: string };

async function run(
  input: MediaInput,
  inExt: string,
  outExt: 'ogg' | 'webm',
  build: (cmd: ffmpeg.FfmpegCommand) => ffmpeg.FfmpegCommand,
  timeoutMs: number,
): Promise<{
  path: string;
  size: number;
  dispose: () => Promise<void>;
  codecData: { duration?: string; video_details?: string[] };
}> {
  const dir = await mkdtemp(join(tmpdir(), WORK_DIR_PREFIX));
  const dispose = () => rm(dir, { recursive: true, force: true }).catch(() => {});
  try {
    const dst = join(dir, `out.${outExt}`);
    let src: string;
    if (input instanceof Uint8Array) {
      src = join(dir, `in.${inExt}`);
      await writeFile(src, input);
    } else src = input.path;
    let codecData: { duration?: string; video_details?: string[] } = {};
    await new Promise<void>((resolve, reject) => {
      const cmd = build(ffmpeg(src).setFfmpegPath(ffmpegPath()))
        .on('codecData', (d: typeof codecData) => {
          codecData = d;
        })
        .on('error', (err: Error) => reject(err))
        .on('end', () => resolve());
      const timer = setTimeout(() => {
        cmd.kill('SIGKILL');
        reject(new AppError('PAYLOAD_TOO_LARGE', VIDEO_TOO_LONG));
      }, timeoutMs);
      cmd.on('end', () => clearTimeout(timer)).on('error', () => clearTimeout(timer));
      cmd.save(dst);
    });
    if (input instanceof Uint8Array) await rm(src, { force: true });
    return { path: dst, size: (await stat(dst)).size, dispose, codecData };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** Converts an audio file to OGG/Opus, mono 48 kHz at 48 kb/s. */
export async function toOgg(input: MediaInput, inExt: string): Promise<Converted> {
  const { codecData: _c, ...out } = await run(
    input,
    inExt,
    'ogg',
    (c) =>
      c
        .noVideo()
        .audioCodec('libopus')
        .audioBitrate('48k')
        .audioChannels(1)
        .audioFrequency(48000)
        .format('ogg'),
    VIDEO_TIMEOUT_MS,
  );
  return { ...out, ext: 'ogg' };
}

/** "00:00:10.04" → 10.04 seconds. */
function seconds(duration: string | undefined): number {
  const m = duration?.match(/(\d+):(\d+):(\d+(?:\.\d+)?)/);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}

/**
 * Converts a video to WebM (VP9 + Opus) within `timeoutMs` (spec 000 §9: 30 s).
 * @throws AppError with the spec's "tardó demasiado" text when it takes longer.
 */
export async function toWebm(
  input: MediaInput,
  inExt: string,
  timeoutMs = VIDEO_TIMEOUT_MS,
): Promise<Converted> {
  const { codecData, ...out } = await run(
    input,
    inExt,
    'webm',
    (c) =>
      c
        .videoCodec('libvpx-vp9')
        .audioCodec('libopus')
        .outputOptions(['-b:v 1M', '-deadline realtime', '-cpu-used 8', '-row-mt 1'])
        .format('webm'),
    timeoutMs,
  );
  const size = codecData.video_details?.map((d) => d.match(/^(\d{2,5})x(\d{2,5})/)).find(Boolean);
  return {
    ...out,
    ext: 'webm',
    video: {
      duration: seconds(codecData.duration),
      width: Number(size?.[1] ?? 0),
      height: Number(size?.[2] ?? 0),
      codec: 'vp9',
    },
  };
}
