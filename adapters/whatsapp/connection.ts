/** A bot's WhatsApp connection in this process (adapters/whatsapp/index.ts keeps one per bot). */
import type { BaileysSession } from './baileys/session.ts';
import type { Graph } from './cloud/graph.ts';
import type { CloudTransport } from './cloud/transport.ts';

/** One bot connected in this process: a linked device's session, or a Cloud API number. */
export type Connection =
  | { backend: 'baileys'; session: BaileysSession }
  | { backend: 'cloud'; transport: CloudTransport; phoneNumberId: string; graph: Graph };
