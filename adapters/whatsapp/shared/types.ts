/**
 * What the two WhatsApp backends share: a follower's message normalised the same way from a
 * linked device (Baileys) or a Cloud API webhook, as it is stored in the inbox, and the transport
 * each backend offers to send a reply.
 */
import type { ReceivedKind } from '../../../engine/conversation/texts.ts';
import type { OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment } from '../../../engine/schemas.ts';

/** The channel id: inbox rows, conversation messages and followers carry it. */
export const WHATSAPP = 'whatsapp';

/** A follower's message as the inbox stores it (JSON), whichever backend received it. */
export interface WaInbound {
  backend: 'baileys' | 'cloud';
  /** The follower's WhatsApp id: a linked device's JID (LID `…@lid` or phone `…@s.whatsapp.net`), or the Cloud API's `wa_id`. */
  chatId: string;
  /** The channel's message id (Baileys `key.id`, Cloud API `wamid…`). */
  waMessageId: string;
  /** The follower's words (text, a caption, or the title of a list row they picked). */
  text: string;
  /** The follower's profile name. */
  pushName: string | null;
  /** The follower's phone number (digits), when WhatsApp gives it. */
  phone: string | null;
  /** When the follower sent it, Unix seconds. */
  timestamp: number;
  /** Media the message carries: the engine stores it; plugins may download it. */
  media: { kind: ReceivedKind; channelFileId: string; mime: string | null } | null;
  /** A row the follower picked from an interactive list (Cloud API): the offered file's id. */
  pickedFileId: string | null;
  /** Linked device: the message proto (BufferJSON text), kept to download its media later. */
  raw: string | null;
}

/**
 * Where an attachment's bytes come from: a stored file (`read` loads its bytes from the storage,
 * local disk or S3, only when they are needed), or an http address.
 */
export type FileSource = { read: () => Promise<Buffer> } | { url: string };

/** A refusal that will not change on retry (bad request, outside the 24-hour window). */
export class PermanentSendError extends Error {
  override name = 'PermanentSendError';
}

/**
 * How a backend sends to one follower. Methods throw {@link PermanentSendError} for a refusal a
 * retry cannot fix, other errors for failures worth retrying.
 */
export interface WaTransport {
  backend: 'baileys' | 'cloud';
  /** Shows "typing…" to the follower until the returned function is called. */
  typing(inbound: Pick<WaInbound, 'waMessageId'> | null, chatId: string): () => void;
  sendText(chatId: string, text: string): Promise<void>;
  /** Offers files to pick: an interactive list (Cloud API); linked devices rely on the numbered text. */
  sendChoices(
    chatId: string,
    body: string,
    choices: NonNullable<OutboundMessage['choices']>,
    lang: import('../../../engine/schemas.ts').LangCode,
  ): Promise<'sent' | 'unsupported'>;
  sendAttachment(chatId: string, attachment: Attachment, source: FileSource): Promise<void>;
  sendVoice(chatId: string, voice: NonNullable<OutboundMessage['voice']>): Promise<void>;
  downloadMedia(channelFileId: string): Promise<{ data: Buffer; mime: string | null }>;
}
