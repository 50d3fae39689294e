#!/usr/bin/env node
// Runs a TypeScript entry point (benchmarks, scripts) with tsx's ESM loader: `node bin/run-ts.js file.ts [args]`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node bin/run-ts.js <file.ts> [args]\n');
  process.exit(2);
}
process.argv.splice(2, 1);
await import(pathToFileURL(resolve(entry)).href);
