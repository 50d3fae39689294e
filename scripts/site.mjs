/**
 * Builds the public site's browser code (plugins/site/client) into dist/site with esbuild:
 *  - site-<hash>.js: the one script every public page loads (language switch, like, share, and the
 *    assistant's loader), an ES module of a few hundred bytes;
 *  - assistant-<hash>.js and its chunks: the site assistant's React island, fetched on first use;
 *  - manifest.json: `{site: "site-<hash>.js"}`, read by the server to link the script.
 * `npm install` runs it (the `prepare` script); `charla start` calls {@link ensureSite}, which
 * rebuilds only when a client source is newer. `node scripts/site.mjs` builds and prints the sizes.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { newest } from './newest.mjs';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'plugins', 'site', 'client');
/** The built site script and its chunks. */
export const SITE_DIR = join(root, 'dist', 'site');
const MANIFEST = join(SITE_DIR, 'manifest.json');

/** True when dist/site is missing or older than a client source (or this script). */
export function siteIsStale() {
  try {
    const built = statSync(MANIFEST).mtimeMs;
    return built < Math.max(newest(SOURCE), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  } catch {
    return true;
  }
}

/** Gzip sizes (level 9, bytes) of the eager script and of everything the assistant loads. */
export function siteGzipSizes() {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const gz = (file) => gzipSync(readFileSync(join(SITE_DIR, file)), { level: 9 }).length;
  const rest = readdirSync(SITE_DIR).filter((f) => f.endsWith('.js') && f !== manifest.site);
  return { site: gz(manifest.site), assistant: rest.reduce((sum, f) => sum + gz(f), 0) };
}

/** Builds dist/site (into a temporary folder, then swapped in). */
export async function buildSite() {
  const { build } = await import('esbuild');
  const temp = `${SITE_DIR}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const result = await build({
    entryPoints: [join(SOURCE, 'site.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    outdir: temp,
    tsconfig: join(SOURCE, 'tsconfig.json'),
    metafile: true,
  });
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint)?.[0];
  if (!entry) throw new Error('esbuild gave no entry output');
  writeFileSync(join(temp, 'manifest.json'), `${JSON.stringify({ site: basename(entry) })}\n`);
  precompress(temp);
  const old = `${SITE_DIR}.old-${process.pid}`;
  try {
    renameSync(SITE_DIR, old);
  } catch {
    // No earlier build.
  }
  renameSync(temp, SITE_DIR);
  rmSync(old, { recursive: true, force: true });
}

/** Rebuilds when stale; returns whether a build ran. */
export async function ensureSite() {
  if (!siteIsStale()) return false;
  await buildSite();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildSite();
  const { site, assistant } = siteGzipSizes();
  process.stdout.write(
    `built ${SITE_DIR}: site script ${(site / 1024).toFixed(1)} KB gzip, assistant island ${(assistant / 1024).toFixed(1)} KB gzip (on first use)\n`,
  );
}
