/**
 * Sending through the WhatsApp Cloud API for one business number (issue 13; WhatsApp Business
 * Platform, Messages API): text (`text.body`, at most 4096 characters), files uploaded once to
 * `/{phone-number-id}/media` and sent by media id (image, document with its file name, audio,
 * voice note: OGG/Opus with `voice: true`, video), the LIST offer as an interactive list (at most
 * 10 rows, titles cut to 24 characters), and the typing indicator (`status: read` with
 * `typing_indicator`, shown up to 25 s or until the reply).
 *
 * Free-form messages are only sent inside the 24-hour customer service window: a message to a
 * follower whose last message is older (or an answer 131047 from Meta) is refused with a
 * {@link PermanentSendError} whose text the owner sees.
 */
import type { OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment, LangCode } from '../../../engine/schemas.ts';
import { contactOf, storeOutgoing } from '../messages.ts';
import { SERVICE_WINDOW_MS } from '../shared/answer.ts';
import { type FileSource, PermanentSendError, type WaInbound, type WaTransport } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import { fillText, LIST_BUTTON, WHATSAPP_ERRORS } from '../texts.ts';
import { describeGraphError, type Graph, isPermanentGraph, isWindowClosed } from './graph.ts';

/** Interactive list limits (WhatsApp Cloud API, interactive list messages). */
export const LIST_MAX_ROWS = 10;
export const ROW_TITLE_MAX = 24;
export const ROW_DESCRIPTION_MAX = 72;
/** How often the typing indicator is renewed while the LLM works, ms (it lasts 25 s). */
const TYPING_EVERY_MS = 20_000;

/** Cuts a text to `max` characters (code points), ending with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** What a Cloud API transport needs. */
export interface CloudTransportDeps {
  graph: Graph;
  phoneNumberId: string;
  chatbotId: string;
  db: WaDb;
  now: () => Date;
  /** Media ids already uploaded for this number, by stored file id (valid 30 days at Meta). */
  mediaIds: Map<string, { id: string; at: number }>;
  onError?: (err: unknown) => void;
}

/** Media ids are reused for this long, ms (Meta keeps uploads 30 days). */
const MEDIA_ID_TTL_MS = 20 * 86_400_000;

export class CloudTransport implements WaTransport {
  readonly backend = 'cloud' as const;
  /** A list's body carries the reply when it is short enough (interactive body text). */
  readonly listBodyMax = 1024;

  /** The latest follower message time per chat seen by this process (saves a query per reply), ms. */
  private readonly lastInbound = new Map<string, number>();

  constructor(private readonly deps: CloudTransportDeps) {}

  /** Records a follower's message time (the 24-hour window opens from it). */
  noteInbound(chatId: string, at: Date): void {
    const t = at.getTime();
    if ((this.lastInbound.get(chatId) ?? 0) < t) this.lastInbound.set(chatId, t);
    if (this.lastInbound.size > 10_000) this.lastInbound.delete(this.lastInbound.keys().next().value!);
  }

  typing(inbound: Pick<WaInbound, 'waMessageId'> | null, _chatId: string): () => void {
    if (!inbound) return () => {};
    const show = () =>
      void this.deps.graph
        .sendMessage(this.deps.phoneNumberId, {
          status: 'read',
          message_id: inbound.waMessageId,
          typing_indicator: { type: 'text' },
        })
        .catch((err: unknown) => this.deps.onError?.(err));
    show();
    const timer = setInterval(show, TYPING_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer); // the reply itself dismisses the indicator
  }

  /**
   * Sends one message to a follower, inside the 24-hour window.
   * @throws PermanentSendError outside the window or for a refusal a retry cannot fix.
   */
  private async post(chatId: string, payload: Record<string, unknown>): Promise<void> {
    const { db, chatbotId, graph, phoneNumberId, now } = this.deps;
    let last = this.lastInbound.get(chatId) ?? 0;
    if (now().getTime() - last > SERVICE_WINDOW_MS) {
      // Not seen here lately (another process got it, or a restart): the store knows.
      const contact = await contactOf(db, chatbotId, chatId);
      last = contact?.last_inbound_at ? new Date(contact.last_inbound_at).getTime() : 0;
    }
    if (now().getTime() - last > SERVICE_WINDOW_MS)
      throw new PermanentSendError(fillText(WHATSAPP_ERRORS.window24h, { chat: chatId }));
    let id: string | null;
    try {
      id = await graph.sendMessage(phoneNumberId, { recipient_type: 'individual', to: chatId, ...payload });
    } catch (err) {
      if (isWindowClosed(err))
        throw new PermanentSendError(fillText(WHATSAPP_ERRORS.window24h, { chat: chatId }));
      if (isPermanentGraph(err)) throw new PermanentSendError(describeGraphError(err));
      throw new Error(describeGraphError(err));
    }
    if (id) await storeOutgoing(db, { chatbotId, messageId: id, chatId, content: null });
  }

  /**
   * Issue 28: true while the follower's 24-hour customer service window is open (their last
   * message, as this process saw it or as the store has it, is less than 24 hours old).
   */
  async inWindow(chatId: string): Promise<boolean> {
    const { db, chatbotId, now } = this.deps;
    let last = this.lastInbound.get(chatId) ?? 0;
    if (now().getTime() - last > SERVICE_WINDOW_MS) {
      const contact = await contactOf(db, chatbotId, chatId);
      last = contact?.last_inbound_at ? new Date(contact.last_inbound_at).getTime() : 0;
    }
    return now().getTime() - last <= SERVICE_WINDOW_MS;
  }

  /**
   * Issue 28: sends an approved message template (`type: "template"`), which Meta delivers outside
   * the 24-hour window too. `template` is the send's `template` object (cloud/templates.ts).
   * @throws PermanentSendError for a refusal a retry cannot fix (template not approved, bad params).
   */
  async sendTemplate(chatId: string, template: Record<string, unknown>): Promise<void> {
    const { db, chatbotId, graph, phoneNumberId } = this.deps;
    let id: string | null;
    try {
      id = await graph.sendMessage(phoneNumberId, {
        recipient_type: 'individual',
        to: chatId,
        type: 'template',
        template,
      });
    } catch (err) {
      if (isPermanentGraph(err)) throw new PermanentSendError(describeGraphError(err));
      throw new Error(describeGraphError(err));
    }
    if (id) await storeOutgoing(db, { chatbotId, messageId: id, chatId, content: null });
  }

  sendText(chatId: string, text: string): Promise<void> {
    return this.post(chatId, { type: 'text', text: { body: text, preview_url: false } });
  }

  async sendChoices(
    chatId: string,
    body: string,
    choices: NonNullable<OutboundMessage['choices']>,
    lang: LangCode,
  ): Promise<'sent' | 'unsupported'> {
    const t = LIST_BUTTON[lang];
    const rows = choices.slice(0, LIST_MAX_ROWS).map((c) => ({
      id: `f:${c.id}`,
      title: cut(c.label, ROW_TITLE_MAX),
      ...(Array.from(c.label).length > ROW_TITLE_MAX
        ? { description: cut(c.label, ROW_DESCRIPTION_MAX) }
        : {}),
    }));
    await this.post(chatId, {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: body },
        action: { button: cut(t.button, 20), sections: [{ title: cut(t.section, 24), rows }] },
      },
    });
    return 'sent';
  }

  /** Uploads a file once per number (the media id is reused) and returns its media id. */
  private async mediaId(key: string | null, data: () => Promise<Buffer>, mime: string, name: string) {
    const cached = key ? this.deps.mediaIds.get(key) : undefined;
    if (cached && Date.now() - cached.at < MEDIA_ID_TTL_MS) return cached.id;
    let id: string;
    try {
      id = await this.deps.graph.uploadMedia(this.deps.phoneNumberId, await data(), mime, name);
    } catch (err) {
      // A stored file that is gone (answer.ts): no retry either.
      if (err instanceof PermanentSendError) throw err;
      if (isPermanentGraph(err)) throw new PermanentSendError(describeGraphError(err));
      throw new Error(describeGraphError(err));
    }
    if (key) this.deps.mediaIds.set(key, { id, at: Date.now() });
    return id;
  }

  async sendAttachment(chatId: string, attachment: Attachment, source: FileSource): Promise<void> {
    const bytes = async () => {
      if ('read' in source) return source.read();
      const res = await fetch(source.url, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`could not read ${attachment.name}: HTTP ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    };
    const id = await this.mediaId(attachment.fileId, bytes, attachment.mime, attachment.name);
    const caption = attachment.caption ? { caption: attachment.caption.slice(0, 1024) } : {};
    switch (attachment.type) {
      case 'image':
        return this.post(chatId, { type: 'image', image: { id, ...caption } });
      case 'video':
        return this.post(chatId, { type: 'video', video: { id, ...caption } });
      case 'pdf':
      case 'document':
        return this.post(chatId, {
          type: 'document',
          document: { id, filename: attachment.name, ...caption },
        });
      case 'audio': {
        // Audio carries no caption: it goes first as text. OGG/Opus plays as a voice note.
        if (attachment.caption) await this.sendText(chatId, attachment.caption);
        const voice = /ogg|opus/i.test(attachment.mime);
        return this.post(chatId, { type: 'audio', audio: { id, ...(voice ? { voice: true } : {}) } });
      }
    }
  }

  async sendVoice(chatId: string, voice: NonNullable<OutboundMessage['voice']>): Promise<void> {
    const id = await this.mediaId(null, async () => voice.data, 'audio/ogg', 'voice.ogg');
    await this.post(chatId, { type: 'audio', audio: { id, voice: true } });
  }

  downloadMedia(channelFileId: string): Promise<{ data: Buffer; mime: string | null }> {
    return this.deps.graph.downloadMedia(channelFileId);
  }
}
