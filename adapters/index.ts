/**
 * The registered channel adapters (DESIGN.md: registration is explicit). A new adapter is one
 * folder under adapters/ and one line here; see docs/adapters.md. Each entry is a factory: every
 * app (and every test app in one process) gets its own adapter instances and connections.
 */
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { createTelegramAdapter } from './telegram/index.ts';
import { createWebAdapter } from './web/index.ts';
import { createWhatsAppAdapter } from './whatsapp/index.ts';

export const adapterFactories: ReadonlyArray<() => ChannelAdapter> = [
  createTelegramAdapter,
  () => createWhatsAppAdapter(),
  createWebAdapter,
];
