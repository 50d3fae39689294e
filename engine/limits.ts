/**
 * Limits shared by the server and every chat client, in a module with no imports so the web widget
 * (widget/, a few KB of vanilla TS) can bundle it without zod. engine/schemas.ts re-exports them.
 */

/**
 * Characters (UTF-16 code units, what `String.length` and zod's `.max` count) of one message the
 * engine accepts in a turn; a longer `userMessage` is refused (400). Every composer (the test chat,
 * the web try-out chat, the widget, the IALanding's chat bar) caps its input at this, with a counter.
 * A longer item of `messageHistory` is cut to it (engine/schemas.ts HistoryItemInput).
 */
export const MAX_MESSAGE_CHARS = 8000;
