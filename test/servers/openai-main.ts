/**
 * The fake OpenAI server as its own process (benchmarks): prints its base URL on stdout.
 * `node bin/run-ts.js test/servers/openai-main.ts [port]`
 */
import { startFakeOpenAi } from './openai.ts';

/** A fixed reply about the size of a short real answer. */
export const BENCH_REPLY =
  '¡Claro! En El Pato Pepe te esperamos de martes a domingo. ¿Quieres reservar mesa?';

const fake = await startFakeOpenAi({
  port: Number(process.argv[2] ?? 0),
  record: false,
  reply: () => ({ text: BENCH_REPLY }),
});
process.stdout.write(`${fake.baseURL}\n`);
