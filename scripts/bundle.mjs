/**
 * Bundles the `charla` command (cli/main.ts and everything it imports, with its pure-JS
 * dependencies) into dist/charla.mjs with esbuild, so the command starts without compiling
 * TypeScript and without resolving hundreds of dependency modules (cold start, issue 2).
 * `bin/charla.js` calls {@link ensureBundle} on every start: it rebuilds only when a source file is
 * newer than the bundle, so a clone runs with no separate build step and an edit is picked up.
 * Dependencies that load files next to their own modules (PGlite's WebAssembly, pino's worker
 * transports, swagger-ui's assets, pg's optional native binding) stay external, and so do CommonJS
 * modules that read `__dirname`, which an ESM bundle does not define: fluent-ffmpeg (its presets
 * folder; bundled, every conversion failed with "__dirname is not defined", issue 10) and
 * @ffmpeg-installer/ffmpeg (finds its binary next to its own module). test/e2e.test.ts uploads
 * audio and video through the bundle, so a new dependency of this kind shows up there.
 * `@whiskeysockets/baileys` stays external too (its WebAssembly and protobuf files sit beside it; the
 * WhatsApp adapter imports it only when a bot has a linked device, so start-up never pays for it).
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = join(root, 'dist', 'charla.mjs');
const SOURCES = ['cli', 'engine', 'adapters', 'plugins', 'migrations'];

/** Newest modification time (ms) of the sources the bundle is made from. */
function newestSource() {
  let newest = statSync(join(root, 'package.json')).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(tsx?|css)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const s of SOURCES) walk(join(root, s));
  return newest;
}

/** True when dist/charla.mjs is missing or older than a source file. */
export function bundleIsStale() {
  try {
    return statSync(BUNDLE).mtimeMs < newestSource();
  } catch {
    return true;
  }
}

/** Chunks older than this are removed by a build that no longer makes them (ms). */
const CHUNK_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * Builds dist/charla.mjs and its chunks (atomically: a concurrent start never loads half a file).
 * What a start does not need (a module reached only through `import()`: the LLM SDK, the mailer, the
 * page renderer…) goes to a chunk `dist/charla-chunk-<hash>.mjs`, read when first used (issue 25:
 * cold start). Chunks sit next to the entry so `import.meta.url` means the same in both. A chunk
 * is removed only once a day old and not part of the new build: a process started from an older
 * build may still load its chunks.
 */
export async function buildBundle() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { charla: join(root, 'cli', 'main.ts') },
    bundle: true,
    splitting: true,
    chunkNames: 'charla-chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    outdir: dirname(BUNDLE),
    sourcemap: 'linked',
    // Stack traces map to cli/, engine/… file and line; the sources themselves are in the checkout, so
    // the map leaves them out: Node reads and parses the whole map at start-up (20 MB with them, 5 MB without).
    sourcesContent: false,
    legalComments: 'none',
    minify: true,
    keepNames: true,
    logLevel: 'silent',
    external: [
      '@electric-sql/pglite',
      // its vector.tar.gz is read next to its module at run time
      '@electric-sql/pglite-pgvector',
      'pg',
      'pino',
      'pino-pretty',
      'thread-stream',
      '@fastify/swagger-ui',
      'esbuild',
      'fluent-ffmpeg',
      '@ffmpeg-installer/ffmpeg',
      '@whiskeysockets/baileys',
    ],
    // Bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __charlaRequire } from 'node:module'; const require = __charlaRequire(import.meta.url);",
    },
  });
  mkdirSync(dirname(BUNDLE), { recursive: true });
  // Chunks first, the entry last: a start never loads an entry whose chunks are not there yet.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === BUNDLE) - Number(b.path === BUNDLE));
  for (const file of files) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  const made = new Set(files.map((f) => f.path));
  for (const name of readdirSync(dirname(BUNDLE))) {
    const path = join(dirname(BUNDLE), name);
    if (!name.startsWith('charla-chunk-') || made.has(path)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > CHUNK_MAX_AGE_MS) rmSync(path, { force: true });
    } catch {
      // removed meanwhile by another build
    }
  }
}

/** Rebuilds the bundle when stale; returns its path. */
export async function ensureBundle() {
  if (bundleIsStale()) await buildBundle();
  return BUNDLE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildBundle();
  process.stdout.write(`built ${BUNDLE}\n`);
}
