#!/usr/bin/env node
// The `charla` command. It runs dist/charla.mjs, an esbuild bundle of the TypeScript sources that
// scripts/bundle.mjs rebuilds on start whenever a source is newer (so there is no separate build
// step, and an edit is picked up). CHARLA_FROM_SOURCE=1 runs the sources through tsx instead.
import { pathToFileURL } from 'node:url';

process.setSourceMapsEnabled(true);
let entry;
if (process.env.CHARLA_FROM_SOURCE !== '1') {
  try {
    const { ensureBundle } = await import('../scripts/bundle.mjs');
    entry = pathToFileURL(await ensureBundle()).href;
  } catch (err) {
    process.stderr.write(`charla: could not bundle the sources (${err.message}); running them through tsx\n`);
  }
}
if (entry) {
  await import(entry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
