/**
 * The web widget's weight (issue 6 goals): the loader every page of a business's site runs
 * (dist/widget/widget.js, ≤ 8 KB gzip) and the chat UI it imports on the first open
 * (dist/widget/chat-<hash>.js with its CSS inside, ≤ 50 KB gzip). Sizes are gzip level 9 of the
 * built files; the build runs first when a widget source is newer. Alone:
 * `BENCH_ONLY=widget node bin/run-ts.js bench/widget.ts`.
 */

interface WidgetBuild {
  ensureWidget(): Promise<boolean>;
  widgetGzipSizes(): { loader: number; chat: number };
}

/** Issue 6's limits, in KB (gzip). */
export const WIDGET_GOALS = { loader: 8, chat: 50 } as const;

/** Gzip sizes in bytes of the loader and the chat UI (builds the widget when stale). */
export async function measureWidget(): Promise<{ loader: number; chat: number }> {
  const build = (await import(new URL('../scripts/widget.mjs', import.meta.url).href)) as WidgetBuild;
  await build.ensureWidget();
  return build.widgetGzipSizes();
}

/** Measures and returns the printed lines. */
export async function widgetSizes(): Promise<string> {
  const sizes = await measureWidget();
  const line = (name: string, bytes: number, goal: number) => {
    const kb = bytes / 1024;
    return `  ${name.padEnd(22)} ${kb.toFixed(1).padStart(6)} KB   goal ≤ ${goal} KB ${kb <= goal ? '✓' : '✗'}`;
  };
  return [
    '',
    'Web widget (gzip -9)',
    line('loader (widget.js)', sizes.loader, WIDGET_GOALS.loader),
    line('chat UI (on open)', sizes.chat, WIDGET_GOALS.chat),
    '',
  ].join('\n');
}

if (process.env.BENCH_ONLY === 'widget') {
  process.stdout.write(await widgetSizes());
}
