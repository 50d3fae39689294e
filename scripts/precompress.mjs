/**
 * Writes `<file>.br` and `<file>.gz` beside each built script, style sheet and SVG of a folder, so
 * @fastify/static (`preCompressed`) sends the smallest one the browser accepts without compressing
 * on every request. Called by the dashboard's and the site's builds.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Smallest file worth compressing, bytes (below it the headers weigh more than the gain). */
const MIN_BYTES = 1024;

/** Compresses every .js, .css and .svg file under `dir` (recursively); returns how many. */
export function precompress(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      count += precompress(path);
      continue;
    }
    if (!/\.(js|css|svg)$/.test(entry.name) || statSync(path).size < MIN_BYTES) continue;
    const data = readFileSync(path);
    writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }),
    );
    count++;
  }
  return count;
}
