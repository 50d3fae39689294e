/**
 * The follower's language in the offline responder (issue 29, engine/conversation/language.ts):
 * the CPU time of reading one short chat message (greeting check and `eld` detection), against the
 * offline reply itself (engine/conversation/offline.ts) on the demo bot, and the detector's one-off
 * load (time and heap). Goal: < 0.05 ms of CPU a message. CPU time (process.cpuUsage) is used,
 * as it is steadier than wall time on a loaded machine.
 * Alone: `BENCH_ONLY=language node bin/run-ts.js bench/language.ts`.
 */
import { DEMO_BOT, DEMO_FILES } from '../cli/seed.ts';
import { languageDetector, readMessage } from '../engine/conversation/language.ts';
import { offlineReply } from '../engine/conversation/offline.ts';
import type { ContenedorEmpatico } from '../engine/schemas.ts';

/** Goal for one detection, in milliseconds of CPU. */
const GOAL_MS = 0.05;

const MESSAGES = [
  'What time do you open on Saturday?',
  '¿A qué hora abrís el sábado?',
  'quiero reservar una mesa para dos',
  'Во сколько вы открываетесь в субботу?',
  'Où se trouve le restaurant ?',
  'Habt ihr vegetarische Gerichte?',
  'Avete piatti vegetariani?',
  'शनिवार को आप कितने बजे खुलते हैं?',
  'hola',
  'la carta',
];

/** CPU milliseconds per call of `run` over `n` calls (after `n / 10` warm-up calls). */
function cpuMsPer(n: number, run: (i: number) => void): number {
  for (let i = 0; i < n / 10; i++) run(i);
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) run(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / n;
}

/** Runs the section; returns its printed text and summary lines. */
export async function languageBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  const heap = process.memoryUsage().heapUsed;
  const started = performance.now();
  const detector = await languageDetector();
  const loadMs = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heap) / 1e6;
  const detectMs = cpuMsPer(50_000, (i) => readMessage(detector, MESSAGES[i % MESSAGES.length]!, 'es'));
  const files = DEMO_FILES.map((f, i) => ({
    id: String(i),
    file_name: f.asset,
    keyword: f.keyword,
    context: f.context,
  }));
  const container = {
    analisisInterno: { alertas: [], archivoMencionado: null, archivosEnviados: [] },
    archivos: { action: 'NONE', lista: [] },
    estadoEmpatico: { estado: 'neutral' },
  } as unknown as ContenedorEmpatico;
  const replyMs = cpuMsPer(2_000, (i) =>
    offlineReply({
      lang: 'es',
      businessName: DEMO_BOT.business_name,
      businessDescription: DEMO_BOT.business_description,
      message: MESSAGES[i % MESSAGES.length]!,
      files,
      container,
      firstTurn: true,
    }),
  );
  const ok = detectMs < GOAL_MS;
  const text =
    `\nFollower's language (offline responder, eld small, 7 languages)\n` +
    `  detection: ${(detectMs * 1000).toFixed(1)} µs CPU a message (goal < ${GOAL_MS * 1000} µs) ${ok ? 'ok' : 'OVER'}\n` +
    `  offline reply itself: ${(replyMs * 1000).toFixed(0)} µs CPU a message (detection adds ${((detectMs / replyMs) * 100).toFixed(1)} %)\n` +
    `  detector load, once per process on the first offline turn: ${loadMs.toFixed(0)} ms, ${heapMb.toFixed(0)} MB heap\n`;
  return {
    text,
    summaries: [`follower's language: ${(detectMs * 1000).toFixed(1)} µs a message (goal < 50 µs)`],
    failed: false,
  };
}

if (process.env.BENCH_ONLY === 'language') {
  const out = await languageBench();
  process.stdout.write(out.text);
}
