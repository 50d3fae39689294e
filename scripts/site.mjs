/**
 * Builds the public site's browser code (plugins/site/client) into dist/site with esbuild:
 *  - site-<hash>.js: the one script every public page loads (language switch, like, share, and the
 *    assistant's loader), an ES module of a few hundred bytes;
 *  - assistant-<hash>.js and its chunks: the site assistant's React island, fetched on first use;
 *  - ialanding-island-<hash>.js and its chunks: the island that hydrates a public IALanding, whose
 *    HTML the server renders with ialanding-ssr.mjs (both from dashboard/src, issue 16);
 *  - ialanding-ssr.mjs: that server render (Node; React and i18next from node_modules);
 *  - manifest.json: `{site, ialanding: {file, imports}}`, read by the server to link the scripts.
 * The islands run on Preact's React-compatible runtime (`preact/compat`, aliased for react and
 * react-dom): the same React components at a third of react-dom's weight and evaluation time on a
 * slow phone (docs/architecture.md, issue 16).
 * `npm install` runs it (the `prepare` script); `charla start` calls {@link ensureSite}, which
 * rebuilds only when a client source is newer. `node scripts/site.mjs` builds and prints the sizes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { isMain, rebuildIfStale, swapIn } from './build-steps.mjs';
import { newest } from './newest.mjs';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'plugins', 'site', 'client');
/** The dashboard's sources: the IALanding's island and server render are made from its components. */
const DASHBOARD = join(root, 'dashboard', 'src');
const ISLAND = join(DASHBOARD, 'ialanding-island.tsx');
const SSR = join(DASHBOARD, 'ialanding-ssr.tsx');
/** The built site script and its chunks. */
export const SITE_DIR = join(root, 'dist', 'site');
const MANIFEST = join(SITE_DIR, 'manifest.json');

/** True when dist/site is missing or older than a client source (or this script). */
export function siteIsStale() {
  try {
    const built = statSync(MANIFEST).mtimeMs;
    return (
      built <
      Math.max(
        newest(SOURCE),
        newest(DASHBOARD, ['routeTree.gen.ts']),
        statSync(fileURLToPath(import.meta.url)).mtimeMs,
      )
    );
  } catch {
    return true;
  }
}

/**
 * Gzip sizes (level 9, bytes) of the eager script, of what an IALanding loads (its island and the
 * chunks it imports) and of everything else (the assistant's island, fetched on first use).
 */
export function siteGzipSizes() {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const gz = (file) => gzipSync(readFileSync(join(SITE_DIR, file)), { level: 9 }).length;
  const landing = [manifest.ialanding.file, ...manifest.ialanding.imports];
  const rest = readdirSync(SITE_DIR).filter(
    (f) => f.endsWith('.js') && f !== manifest.site && !landing.includes(f),
  );
  return {
    site: gz(manifest.site),
    ialanding: landing.reduce((sum, f) => sum + gz(f), 0),
    assistant: rest.reduce((sum, f) => sum + gz(f), 0),
  };
}

/** Builds dist/site (into a temporary folder, then swapped in). */
export async function buildSite() {
  const { build } = await import('esbuild');
  const temp = `${SITE_DIR}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const result = await build({
    entryPoints: [join(SOURCE, 'site.ts'), ISLAND],
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
    alias: {
      react: 'preact/compat',
      'react-dom': 'preact/compat',
      'react/jsx-runtime': 'preact/jsx-runtime',
    },
    outdir: temp,
    tsconfig: join(SOURCE, 'tsconfig.json'),
    metafile: true,
  });
  const outputs = result.metafile.outputs;
  const entryOf = (source) =>
    Object.keys(outputs).find((o) => outputs[o].entryPoint && join(root, outputs[o].entryPoint) === source);
  const entry = entryOf(join(SOURCE, 'site.ts'));
  const island = entryOf(ISLAND);
  if (!entry || !island) throw new Error('esbuild gave no entry output');
  // The chunks the island imports statically, for the page's modulepreload links.
  const imports = new Set();
  const walk = (out) => {
    for (const i of outputs[out]?.imports ?? [])
      if (i.kind === 'import-statement' && !imports.has(i.path)) {
        imports.add(i.path);
        walk(i.path);
      }
  };
  walk(island);
  await build({
    entryPoints: [SSR],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: join(temp, 'ialanding-ssr.mjs'),
    tsconfig: join(SOURCE, 'tsconfig.json'),
  });
  const manifest = {
    site: basename(entry),
    ialanding: { file: basename(island), imports: [...imports].map((i) => basename(i)) },
  };
  writeFileSync(join(temp, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  precompress(temp);
  swapIn(temp, SITE_DIR);
}

/** Rebuilds when stale (calling `onBuild` first); returns whether a build ran. */
export function ensureSite(onBuild = () => {}) {
  return rebuildIfStale(siteIsStale, buildSite, onBuild);
}

if (isMain(import.meta.url)) {
  await buildSite();
  const { site, ialanding, assistant } = siteGzipSizes();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB gzip`;
  process.stdout.write(
    `built ${SITE_DIR}: site script ${kb(site)}, IALanding island ${kb(ialanding)} (with the shared runtime), assistant island ${kb(assistant)} more (on first use)\n`,
  );
}
