/**
 * Message templates on the Cloud API (issue 28 §1, §4): what the adapter does when the follower's
 * 24-hour customer service window is closed, and the templates' life at Meta.
 *
 * - {@link Templating.outsideWindow}: a message with a template intent (engine
 *   `OutboundMessage.template`: a reminder, a confirmation) goes out as that approved template in
 *   the follower's language (guessed from what they wrote), else in the bot's; an owner's late
 *   reply is held and the "team has answered" template goes out instead. With no approved template
 *   nothing is sent and the message waits, with its reason, where the owner sees it
 *   (`GET /api/whatsapp/:chatbotId/waiting`) and in the connection's health.
 * - {@link Templating.deliverWaiting}: when the follower writes again, what waited goes out
 *   free-form, oldest first, before the bot answers.
 * - {@link Templating.submit} (`POST /{waba_id}/message_templates` for each missing template, or
 *   `POST /{template_id}` to edit a rejected one), {@link Templating.sync}
 *   (`GET /{waba_id}/message_templates`: status and `rejected_reason`) and
 *   {@link Templating.statusUpdate} (the `message_template_status_update` webhook).
 */
import type { ChannelContext, OutboundMessage } from '../../../engine/registry/index.ts';
import { LANG_CODES, type LangCode } from '../../../engine/schemas.ts';
import { connectionOf } from '../queries.ts';
import { PermanentSendError } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import { fillText } from '../texts.ts';
import type { Graph } from './graph.ts';
import { describeGraphError, isPermanentGraph } from './graph.ts';
import {
  addWaiting,
  approvedLanguages,
  botsWithPendingTemplates,
  claimWaiting,
  followerLanguage,
  hasHeld,
  saveTemplate,
  templatesOf,
  unclaimWaiting,
} from './template-queries.ts';
import { TEMPLATE_NOTES, type WaitingReason } from './template-texts.ts';
import {
  catalogue,
  renderTemplate,
  TEMPLATE_BODIES,
  TEMPLATE_NAMES,
  type TemplateId,
  templateCreateBody,
  templateIdOf,
  templateMessage,
  templateParams,
} from './templates.ts';
import type { CloudTransport } from './transport.ts';

/** How long an owner's held reply (or a message without a moment) waits for the follower, ms. */
export const WAITING_KEEP_MS = 7 * 86_400_000;

/** What templating needs from the adapter. */
export interface TemplatingDeps {
  ctx: () => ChannelContext;
  db: () => WaDb;
  /** A Graph API client for a token. */
  graph: (token: string) => Graph;
  recordError: (chatbotId: string, message: string) => Promise<void>;
  /** The adapter's free-form send (shared/answer.ts `deliver`). */
  deliver: (
    transport: CloudTransport,
    chatbotId: string,
    chatId: string,
    message: OutboundMessage,
    lang: LangCode,
  ) => Promise<void>;
}

/** One template's state as the owner sees it. */
export interface TemplateState {
  id: TemplateId;
  name: string;
  language: LangCode;
  /** Meta's status, or `NOT_SUBMITTED`. */
  status: string;
  reason: string | null;
  body: string;
}

export type Templating = ReturnType<typeof createTemplating>;

/** Creates the templating functions of one adapter. */
export function createTemplating(deps: TemplatingDeps) {
  /** The bot's Graph client and WhatsApp Business Account id, or why there is none. */
  async function account(
    chatbotId: string,
  ): Promise<{ graph: Graph; wabaId: string } | { error: 'notCloud' | 'noAccount' }> {
    const row = await connectionOf(deps.db(), chatbotId);
    if (row?.backend !== 'cloud' || !row.meta_token) return { error: 'notCloud' };
    if (!row.meta_business_account_id) return { error: 'noAccount' };
    let token: string;
    try {
      token = deps.ctx().secrets.decrypt(row.meta_token);
    } catch {
      return { error: 'notCloud' };
    }
    return { graph: deps.graph(token), wabaId: row.meta_business_account_id };
  }

  /** The language to send a template in: the follower's if approved there, else the bot's, else none. */
  async function pickLanguage(chatbotId: string, chatId: string, id: TemplateId, botLang: LangCode) {
    const approved = await approvedLanguages(deps.db(), chatbotId, TEMPLATE_NAMES[id]);
    const follower = await followerLanguage(deps.db(), chatbotId, chatId);
    const wanted = [...new Set([follower ?? botLang, botLang])];
    return { lang: wanted.find((l) => approved.has(l)), wanted };
  }

  /** Keeps a message for the follower's next one, and tells the owner when no template went out. */
  async function hold(
    chatbotId: string,
    chatId: string,
    message: OutboundMessage,
    w: { sender: 'bot' | 'owner'; template: TemplateId; reason: WaitingReason; wanted: LangCode[] },
  ) {
    const now = deps.ctx().now();
    // A reminder is worth delivering only until the moment it is about.
    const moment = message.template?.params.find((p) => typeof p !== 'string');
    const until = moment && typeof moment !== 'string' ? new Date(moment.when) : null;
    const expiresAt =
      until && !Number.isNaN(until.getTime()) ? until : new Date(now.getTime() + WAITING_KEEP_MS);
    await addWaiting(deps.db(), {
      chatbotId,
      chatId,
      sender: w.sender,
      state: w.reason === 'template_sent' ? 'held' : 'waiting',
      template: w.template,
      message: { text: message.text, ...(message.attachment ? { attachment: message.attachment } : {}) },
      reason: w.reason,
      expiresAt,
    });
    if (w.reason === 'no_approved_template')
      await deps.recordError(
        chatbotId,
        fillText(TEMPLATE_NOTES.noTemplate, {
          chat: chatId,
          template: TEMPLATE_NAMES[w.template],
          langs: w.wanted.join(', '),
        }),
      );
  }

  return {
    /**
     * Sends a message the closed window keeps from going out free-form. Returns false when it is
     * neither a template intent nor an owner's reply (the transport then refuses it as before).
     * A template Meta refuses leaves the message waiting (`template_refused`), recorded for the owner.
     * @throws what a retry may fix (Meta unreachable).
     */
    async outsideWindow(
      transport: CloudTransport,
      chatbotId: string,
      chatId: string,
      message: OutboundMessage,
      sender: 'bot' | 'owner',
      botLang: LangCode,
    ): Promise<boolean> {
      const id: TemplateId | undefined =
        message.template?.id ?? (sender === 'owner' ? 'team_answered' : undefined);
      if (!id) return false;
      // A second late reply joins the first: the follower already has the template (Meta bills each).
      if (!message.template && (await hasHeld(deps.db(), chatbotId, chatId))) {
        await hold(chatbotId, chatId, message, { sender, template: id, reason: 'template_sent', wanted: [] });
        return true;
      }
      const { lang, wanted } = await pickLanguage(chatbotId, chatId, id, botLang);
      if (!lang) {
        await hold(chatbotId, chatId, message, {
          sender,
          template: id,
          reason: 'no_approved_template',
          wanted,
        });
        return true;
      }
      const intent = message.template ?? {
        id,
        params: [(await connectionOf(deps.db(), chatbotId))?.business_name ?? ''],
      };
      try {
        await transport.sendTemplate(chatId, templateMessage(id, lang, templateParams(intent, lang)));
      } catch (err) {
        // Meta refused it (the template was paused or disabled since): waits, and the owner sees why.
        if (!(err instanceof PermanentSendError)) throw err;
        await hold(chatbotId, chatId, message, { sender, template: id, reason: 'template_refused', wanted });
        await deps.recordError(
          chatbotId,
          fillText(TEMPLATE_NOTES.refused, {
            chat: chatId,
            template: TEMPLATE_NAMES[id],
            reason: err.message,
          }),
        );
        return true;
      }
      if (message.template) return true;
      await hold(chatbotId, chatId, message, { sender, template: id, reason: 'template_sent', wanted });
      return true;
    },

    /**
     * Delivers what waited for this follower (they just wrote: the window is open), oldest first.
     * A refusal a retry cannot fix is recorded for the owner; another failure puts the message
     * back and is thrown (the inbox retries the follower's message).
     */
    async deliverWaiting(transport: CloudTransport, chatbotId: string, chatId: string, lang: LangCode) {
      const rows = await claimWaiting(deps.db(), chatbotId, chatId, deps.ctx().now());
      for (const [i, row] of rows.entries()) {
        const message = row.message as OutboundMessage;
        try {
          await deps.deliver(
            transport,
            chatbotId,
            chatId,
            { text: message.text, attachment: message.attachment ?? null },
            lang,
          );
        } catch (err) {
          if (err instanceof PermanentSendError) {
            await deps.recordError(
              chatbotId,
              fillText(TEMPLATE_NOTES.heldFailed, { chat: chatId, reason: err.message }),
            );
            continue;
          }
          for (const rest of rows.slice(i))
            await unclaimWaiting(deps.db(), rest.id, rest.reason === 'template_sent' ? 'held' : 'waiting');
          throw err;
        }
      }
      return rows.length;
    },

    /** Every Charla template in every language with its stored status (`NOT_SUBMITTED` when none). */
    async list(chatbotId: string): Promise<TemplateState[]> {
      const rows = await templatesOf(deps.db(), chatbotId);
      const byKey = new Map(rows.map((r) => [`${r.name}:${r.language}`, r]));
      return catalogue().map(({ id, name, language }) => {
        const row = byKey.get(`${name}:${language}`);
        return {
          id,
          name,
          language,
          status: row?.status ?? 'NOT_SUBMITTED',
          reason: row?.reason ?? null,
          body: TEMPLATE_BODIES[language][id],
        };
      });
    },

    account,

    /**
     * Submits every template not yet at Meta (and edits the rejected ones, which Meta reviews
     * again). A template Meta refuses is stored as `ERROR` with Meta's reason; Meta unreachable
     * stops the submission.
     * @returns how many were sent for review; throws `{ error }` reasons via the route.
     */
    async submit(chatbotId: string, graph: Graph, wabaId: string): Promise<number> {
      const stored = new Map(
        (await templatesOf(deps.db(), chatbotId)).map((r) => [`${r.name}:${r.language}`, r]),
      );
      let sent = 0;
      for (const { id, name, language } of catalogue()) {
        const row = stored.get(`${name}:${language}`);
        if (row && row.status !== 'REJECTED' && row.status !== 'ERROR') continue;
        const body = templateCreateBody(id, language);
        try {
          if (row?.status === 'REJECTED' && row.meta_id) {
            await graph.call('POST', row.meta_id, { components: body.components });
            await saveTemplate(deps.db(), { chatbotId, name, language, status: 'PENDING', reason: null });
          } else {
            const res = await graph.call<{ id?: string; status?: string }>(
              'POST',
              `${wabaId}/message_templates`,
              body,
            );
            await saveTemplate(deps.db(), {
              chatbotId,
              name,
              language,
              status: res?.status ?? 'PENDING',
              reason: null,
              metaId: res?.id ?? null,
            });
          }
          sent++;
        } catch (err) {
          if (!isPermanentGraph(err)) throw err;
          await saveTemplate(deps.db(), {
            chatbotId,
            name,
            language,
            status: 'ERROR',
            reason: describeGraphError(err),
          });
        }
      }
      return sent;
    },

    /**
     * Reads the account's templates at Meta (`GET /{waba_id}/message_templates`, up to 10 pages of
     * 100) and stores the status and rejection reason of Charla's.
     * @returns how many of Charla's templates Meta listed.
     */
    async sync(chatbotId: string, graph: Graph, wabaId: string): Promise<number> {
      type Page = {
        data?: Array<{
          id?: string;
          name?: string;
          language?: string;
          status?: string;
          rejected_reason?: string;
        }>;
        paging?: { cursors?: { after?: string }; next?: string };
      };
      let after: string | undefined;
      let seen = 0;
      for (let page = 0; page < 10; page++) {
        const res = await graph.call<Page>(
          'GET',
          `${wabaId}/message_templates?fields=id,name,language,status,rejected_reason&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        for (const t of res?.data ?? []) {
          if (!t.name || !templateIdOf(t.name) || !t.status) continue;
          if (!(LANG_CODES as readonly string[]).includes(t.language ?? '')) continue;
          seen++;
          await saveTemplate(deps.db(), {
            chatbotId,
            name: t.name,
            language: t.language!,
            status: t.status,
            reason: t.status === 'REJECTED' ? (t.rejected_reason ?? null) : null,
            metaId: t.id ?? null,
          });
        }
        after = res?.paging?.next ? res.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return seen;
    },

    /** Applies one `message_template_status_update` webhook value to a bot's template. */
    async statusUpdate(
      chatbotId: string,
      v: {
        event: string;
        message_template_name: string;
        message_template_language: string;
        reason?: string | null;
        message_template_id?: number | string;
      },
    ): Promise<void> {
      if (!templateIdOf(v.message_template_name)) return; // not one of Charla's
      await saveTemplate(deps.db(), {
        chatbotId,
        name: v.message_template_name,
        language: v.message_template_language,
        status: v.event,
        reason: v.event.toUpperCase() === 'APPROVED' ? null : (v.reason ?? null),
        metaId: v.message_template_id !== undefined ? String(v.message_template_id) : null,
      });
    },

    /**
     * The periodic check: asks Meta about every bot with a template under review (in case a
     * webhook was lost). Errors are logged, never thrown.
     */
    async checkPending(): Promise<void> {
      for (const chatbotId of await botsWithPendingTemplates(deps.db())) {
        const a = await account(chatbotId);
        if ('error' in a) continue;
        await this.sync(chatbotId, a.graph, a.wabaId).catch((err: unknown) =>
          deps.ctx().log.warn({ chatbotId, err: describeGraphError(err) }, 'template check failed'),
        );
      }
    },

    /** What a template will read like for a follower (tests, the dashboard's preview). */
    render: renderTemplate,
  };
}
