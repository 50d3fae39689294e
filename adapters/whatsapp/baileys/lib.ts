/**
 * The part of `@whiskeysockets/baileys` (7.0.0-rc14, pinned) the linked-device backend uses. The
 * module is large (~100 MB of RSS once loaded) and only bots linked by QR need it, so it is
 * imported on first use, never at start-up. Tests give the adapter a module whose
 * `makeWASocket` is a fake (test/servers/whatsapp-web.ts) and keep the real helpers
 * (`initAuthCreds`, `BufferJSON`, `proto`).
 */
export type BaileysModule = typeof import('@whiskeysockets/baileys');

/** What the backend calls. */
export type BaileysLib = Pick<
  BaileysModule,
  | 'makeWASocket'
  | 'initAuthCreds'
  | 'BufferJSON'
  | 'proto'
  | 'DisconnectReason'
  | 'downloadMediaMessage'
  | 'makeCacheableSignalKeyStore'
  | 'jidNormalizedUser'
  | 'jidDecode'
  | 'isPnUser'
  | 'isLidUser'
  | 'isJidGroup'
  | 'isJidBroadcast'
  | 'isJidStatusBroadcast'
  | 'isJidNewsletter'
  | 'normalizeMessageContent'
>;

/** One socket as `makeWASocket` returns it. */
export type WASocket = ReturnType<BaileysModule['makeWASocket']>;
export type WAMessage = import('@whiskeysockets/baileys').WAMessage;
export type AuthenticationState = import('@whiskeysockets/baileys').AuthenticationState;
export type SignalDataTypeMap = import('@whiskeysockets/baileys').SignalDataTypeMap;
export type AnyMessageContent = import('@whiskeysockets/baileys').AnyMessageContent;

/** Loads the real module (once; Node caches it). */
export async function loadBaileys(): Promise<BaileysLib> {
  return import('@whiskeysockets/baileys');
}
