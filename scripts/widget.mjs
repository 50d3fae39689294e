/**
 * Builds the web widget (widget/) into dist/widget with esbuild:
 *  - chat-<hash>.js: the chat UI, an ES module with its CSS inside, imported by the loader on the
 *    first open (its name changes with its content, so it can be cached for long);
 *  - widget.js: the loader, a classic script (IIFE) that shows the floating button.
 * `npm install` runs it (the `prepare` script) with the dashboard's build; {@link ensureWidget}
 * rebuilds only when a widget source is newer than the build. `node scripts/widget.mjs` builds
 * unconditionally and prints the gzip sizes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { isMain, rebuildIfStale, swapIn } from './build-steps.mjs';
import { newest } from './newest.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'widget');
/** The built widget: widget.js and chat-<hash>.js. */
export const WIDGET_DIR = join(root, 'dist', 'widget');
export const WIDGET_LOADER = join(WIDGET_DIR, 'widget.js');

/** True when dist/widget is missing or older than a widget source (or this script). */
export function widgetIsStale() {
  try {
    const built = statSync(WIDGET_LOADER).mtimeMs;
    return built < Math.max(newest(SOURCE), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  } catch {
    return true;
  }
}

/** The files of dist/widget: the loader and the chat UI chunk, by role. */
export function widgetFiles() {
  const chat = readdirSync(WIDGET_DIR).find((f) => /^chat-[\w-]+\.js$/.test(f));
  if (!chat) throw new Error(`no chat chunk in ${WIDGET_DIR}`);
  return { loader: WIDGET_LOADER, chat: join(WIDGET_DIR, chat) };
}

/** Gzip sizes (level 9, bytes) of the built loader and chat UI. */
export function widgetGzipSizes() {
  const files = widgetFiles();
  const gz = (path) => gzipSync(readFileSync(path), { level: 9 }).length;
  return { loader: gz(files.loader), chat: gz(files.chat) };
}

/** Builds dist/widget (into a temporary folder, then swapped in). */
export async function buildWidget() {
  const { build, transform } = await import('esbuild');
  const css = async (file) =>
    (await transform(readFileSync(join(SOURCE, file), 'utf8'), { loader: 'css', minify: true })).code.trim();
  const common = {
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    platform: 'browser',
  };
  const chat = await build({
    ...common,
    entryPoints: [join(SOURCE, 'chat.ts')],
    format: 'esm',
    target: 'es2020',
    define: { __CHAT_CSS__: JSON.stringify(await css('chat.css')) },
    outfile: join(WIDGET_DIR, 'chat.js'),
  });
  const chatCode = chat.outputFiles[0].contents;
  const chatFile = `chat-${createHash('sha256').update(chatCode).digest('base64url').slice(0, 10)}.js`;
  const loader = await build({
    ...common,
    entryPoints: [join(SOURCE, 'loader.ts')],
    format: 'iife',
    target: 'es2019',
    define: {
      __CHAT_FILE__: JSON.stringify(chatFile),
      __LOADER_CSS__: JSON.stringify(await css('loader.css')),
    },
    outfile: WIDGET_LOADER,
  });
  const temp = `${WIDGET_DIR}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  writeFileSync(join(temp, chatFile), chatCode);
  writeFileSync(join(temp, 'widget.js'), loader.outputFiles[0].contents);
  swapIn(temp, WIDGET_DIR);
}

/** Rebuilds when stale (calling `onBuild` first); returns whether a build ran. */
export function ensureWidget(onBuild = () => {}) {
  return rebuildIfStale(widgetIsStale, buildWidget, onBuild);
}

if (isMain(import.meta.url)) {
  await buildWidget();
  const { loader, chat } = widgetGzipSizes();
  process.stdout.write(
    `built ${WIDGET_DIR}: loader ${(loader / 1024).toFixed(1)} KB gzip, chat UI ${(chat / 1024).toFixed(1)} KB gzip\n`,
  );
}
