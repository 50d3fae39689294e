/**
 * A message's template intent (issue 28; engine `OutboundMessage.template`): what the message is,
 * for channels that can only write first with a pre-approved template. WhatsApp's Cloud API outside
 * the 24-hour customer service window sends the approved template `id` in the follower's language,
 * its body filled with `params` in order (`{{1}}`, `{{2}}`, …); a `{ when, timeZone }` param is a
 * moment (ISO 8601, IANA zone) the channel writes in the template's language. Inside the window,
 * and on every other channel, it is ignored: the message's `text` goes out.
 */
export interface OutboundTemplate {
  /**
   * One of Charla's templates (adapters/whatsapp/cloud/templates.ts): the utility ones, and
   * `broadcast`, the MARKETING template of an owner's broadcast (params: `[text]`, issue 28 §1).
   */
  id:
    | 'booking_confirmation'
    | 'reminder_24h'
    | 'reminder_2h'
    | 'booking_changed'
    | 'team_answered'
    | 'broadcast';
  params: Array<string | { when: string; timeZone: string }>;
}
