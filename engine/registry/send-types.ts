/**
 * Where and how a plugin's message to one follower goes (`PluginContext.send`, plugin-types.ts;
 * engine/channels/outbound.ts delivers it).
 */

/** Where an outgoing message goes: one follower of one bot on one channel. */
export interface DeliveryTarget {
  chatbotId: string;
  /** The channel the follower used (`telegram`, `whatsapp`, `web`, …). */
  channel: string;
  /** The follower's id on that channel (`followers.external_id`, `conversation_messages.user_id`). */
  chatId: string;
}

/** Options of `PluginContext.send` (plugin-types.ts). */
export interface SendOptions {
  /**
   * Who the stored message is from: `bot` (a reminder, a plugin's notice) or `owner` (a
   * hand-written reply). Default `bot`.
   */
  sender?: 'bot' | 'owner';
  /** Store the message in the conversation (default true). */
  store?: boolean;
  /**
   * A broadcast's copy (issue 27 §5): stored with `meta.broadcast`, so the web widget shows it as
   * the business's announcement without saying a person took the conversation over.
   */
  broadcast?: boolean;
}
