/**
 * The WhatsApp adapter's contract (issue 13): its stored configuration as the registry sees it, and
 * what the adapter exposes beyond the registry's interface to its routes, its webhook and tests.
 */
import { z } from 'zod';
import type { ChannelAdapter, ChannelConnections, ChannelContext } from '../../engine/registry/index.ts';
import type { BaileysLib } from './baileys/lib.ts';
import type { BaileysSession } from './baileys/session.ts';
import type { Graph } from './cloud/graph.ts';
import type { Templating } from './cloud/templating.ts';
import type { WhatsAppSettings } from './settings.ts';
import type { WaInbound } from './shared/types.ts';
import type { WaDb } from './tables.ts';

/** A bot's stored connection, as the registry sees it (secrets decrypted). */
export const WhatsAppConfig = z.discriminatedUnion('backend', [
  z.object({ backend: z.literal('baileys') }),
  z.object({ backend: z.literal('cloud'), phoneNumberId: z.string().min(1), token: z.string().min(1) }),
]);
export type WhatsAppConfig = z.infer<typeof WhatsAppConfig>;

/** Options of `createWhatsAppAdapter` (tests replace Baileys at its module boundary). */
export interface WhatsAppAdapterOptions {
  loadBaileys?: () => Promise<BaileysLib>;
}

/** A Cloud API number as the webhook needs it (cached briefly). */
export interface CloudNumberInfo {
  chatbotId: string;
  /** The app secret that signs this number's webhooks (its own, or META_APP_SECRET), or null. */
  appSecret: string | null;
}

/** What {@link WhatsAppAdapter} exposes beyond the registry interface (routes and tests use it). */
export interface WhatsAppAdapter extends ChannelAdapter<WhatsAppConfig, WhatsAppSettings> {
  /** Its per-bot connections (always present: the supervisor starts and stops them). */
  connections: ChannelConnections<WhatsAppConfig>;
  settings(): WhatsAppSettings;
  context(): ChannelContext<WhatsAppSettings>;
  db(): WaDb;
  /** This process's id in the linked-device leases. */
  readonly holder: string;
  /** The linked-device session of a bot, when this process holds it. */
  session(chatbotId: string): BaileysSession | undefined;
  /** The bot and webhook secret of a Cloud API phone number id, or undefined. */
  cloudNumber(phoneNumberId: string): Promise<CloudNumberInfo | undefined>;
  /** Forgets cached Cloud API numbers (after a connect or a removal). */
  invalidateCloud(): void;
  /** The webhook verify token (WHATSAPP_VERIFY_TOKEN, or derived from the instance secret). */
  verifyToken(): string;
  /** A Graph API client for a token. */
  graph(token: string): Graph;
  /** Records a problem for the owner (stored: every process shows it). */
  recordError(chatbotId: string, message: string): Promise<void>;
  /** Records that a message arrived (throttled store write). */
  touch(chatbotId: string): void;
  /** Issue 28: the Cloud API's message templates, held replies and waiting messages. */
  templates: Templating;
  /** Stores a follower's message in the inbox (the webhook and the linked devices call it). */
  acceptMessage(chatbotId: string, message: WaInbound): Promise<'stored' | 'duplicate'>;
}
