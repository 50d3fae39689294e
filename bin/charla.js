#!/usr/bin/env node
// The `charla` command. Charla ships as TypeScript and runs it through tsx's ESM loader,
// so there is no build step between a clone and a running server.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
