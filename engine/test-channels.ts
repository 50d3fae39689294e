/**
 * The owner's own test chats (issue 27 §4.5): the dashboard's test chat (`test`) and the CLI's
 * (`cli`). Their turns are not followers and never count in a bot's public numbers
 * (`responses_count`, shown on Facebots). Browser-safe.
 */

/** Channels whose conversations are the owner trying their bot. */
export const TEST_CHANNELS: readonly string[] = ['test', 'cli'];

/** Whether `channel` is one of the owner's test chats ({@link TEST_CHANNELS}). */
export function isTestChannel(channel: string): boolean {
  return TEST_CHANNELS.includes(channel);
}
