/**
 * The public pages a web visitor's mails link to (issue 28 §2), both server-rendered, in the bot's
 * language, and without a session:
 *
 * - `GET /visit?t=<token>`: the link back to the conversation. The token (mail-links.ts, HMAC under
 *   the instance secret, 90 days) names the bot, the channel and the visitor id. The page stores
 *   that id where the widget and the IALanding keep it (localStorage `charla:<bot key>:visitor`,
 *   this origin), then opens the IALanding (channel `ialanding`) or the widget on this page
 *   (channel `web`), which restores the visitor's thread (`GET /api/web/:key/history`). A bad or
 *   expired token, or a bot without a web key, gets 404 with a short page.
 * - `GET /reservations/unsubscribe?t=<token>`: asks, with a button; `POST` (the button) stops every
 *   mail of that booking (mails.ts `unsubscribe`) and says so. A bad token gets 404. Idempotent.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestLanguage } from '../../engine/auth/mail.ts';
import { allowInline } from '../../engine/http/csp.ts';
import { sendHtml } from '../../engine/http/html-page.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { LangCode } from '../../engine/schemas.ts';
import { UnsubscribeLink, VisitLink, verifyToken } from './mail-links.ts';
import { VISITOR_MAIL_TEXTS } from './mail-texts.ts';
import { unsubscribe } from './mails.ts';
import { findBotBasics, type ReservationsDb } from './queries.ts';
import { fillText, textsFor } from './texts.ts';

const TokenQuery = z.object({ t: z.string().min(1).max(2100) });

/** The pages' style (constant, allowed by hash in the page CSP). */
const STYLE = allowInline(
  'style',
  'body{font-family:system-ui,sans-serif;color:#1f2937;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}h1{color:#0f766e;font-size:1.4rem}',
);

/**
 * The link-back page's script (constant, allowed by hash): reads the page's JSON, keeps the visitor
 * id, then goes to the IALanding or mounts the widget and opens it once its button is ready.
 */
const VISIT_SCRIPT = allowInline(
  'script',
  "(function(){var d=JSON.parse(document.getElementById('charla-visit').textContent);try{localStorage.setItem('charla:'+d.key+':visitor',d.visitor)}catch(e){}if(d.go){location.replace(d.go);return}var c=document.createElement('div');c.id='charla-widget';c.setAttribute('data-charla-key',d.key);c.setAttribute('data-charla-host',location.origin);document.body.appendChild(c);var s=document.createElement('script');s.src='/widget.js';s.async=true;document.body.appendChild(s);var n=0;(function open(){var b=c.shadowRoot&&c.shadowRoot.querySelector('button.launch');if(b&&!b.hidden){b.click();return}if(++n<150)setTimeout(open,100)})()})();",
);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A short page: a title, a paragraph, and optional extra HTML. */
function page(lang: LangCode, title: string, body: string, extra = ''): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${extra}</body></html>`;
}

/** The 404 page of a link that is not valid (or expired). */
function badLink(req: FastifyRequest, reply: FastifyReply) {
  const lang = requestLanguage(req.headers);
  const m = VISITOR_MAIL_TEXTS[lang];
  return sendHtml(reply, page(lang, m.badLinkTitle, m.badLinkBody), 404);
}

/** The routes (registered by the plugin with prefix ''). */
export function visitorMailRoutes(
  ctx: Pick<PluginContext, 'secrets' | 'now'>,
  db: ReservationsDb,
): FastifyPluginAsync {
  return async (app) => {
    app.get('/visit', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      const params = TokenQuery.safeParse(req.query);
      const link = params.success ? verifyToken(ctx, 'visit', params.data.t, VisitLink) : null;
      if (!link || link.x < ctx.now().getTime()) return badLink(req, reply);
      const bot = await db
        .selectFrom('chatbots')
        .select(['charla_key', 'idioma', 'business_name'])
        .where('id', '=', link.b)
        .executeTakeFirst();
      if (!bot?.charla_key) return badLink(req, reply);
      let go: string | null = null;
      if (link.c === 'ialanding') {
        const landing = await db
          .selectFrom('ialandings')
          .select('slug')
          .where('chatbot_id', '=', link.b)
          .where('is_active', '=', true)
          .executeTakeFirst();
        if (!landing) return badLink(req, reply);
        go = `/ialanding/${encodeURIComponent(landing.slug)}`;
      }
      const { lang } = textsFor(bot.idioma);
      const data = JSON.stringify({ key: bot.charla_key, visitor: link.v, go }).replace(/</g, '\\u003c');
      const html = page(
        lang,
        bot.business_name,
        VISITOR_MAIL_TEXTS[lang].opening,
        `<script type="application/json" id="charla-visit">${data}</script><script>${VISIT_SCRIPT}</script>`,
      );
      return sendHtml(reply.header('referrer-policy', 'no-referrer'), html);
    });

    // The unsubscribe link asks (GET) and the button does it (POST), so a mail scanner that
    // opens every link unsubscribes no one.
    app.get(
      '/reservations/unsubscribe',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const params = TokenQuery.safeParse(req.query);
        const link = params.success ? verifyToken(ctx, 'unsubscribe', params.data.t, UnsubscribeLink) : null;
        if (!params.success || !link) return badLink(req, reply);
        const lang = requestLanguage(req.headers);
        const m = VISITOR_MAIL_TEXTS[lang];
        const action = `/reservations/unsubscribe?t=${encodeURIComponent(params.data.t)}`;
        const form = `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(m.unsubscribeButton)}</button></form>`;
        return sendHtml(
          reply.header('referrer-policy', 'no-referrer'),
          page(lang, m.unsubscribeButton, m.unsubscribeAsk, form),
        );
      },
    );

    // The form posts nothing but its address: its body is read and dropped.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_r, _b, done) => done(null, {}),
    );
    app.post(
      '/reservations/unsubscribe',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const params = TokenQuery.safeParse(req.query);
        const link = params.success ? verifyToken(ctx, 'unsubscribe', params.data.t, UnsubscribeLink) : null;
        const r = link ? await unsubscribe(db, link.r, ctx.now()) : undefined;
        if (!r) return badLink(req, reply);
        const bot = await findBotBasics(db, r.chatbot_ref);
        const { lang } = textsFor(bot?.idioma ?? 'Español');
        const m = VISITOR_MAIL_TEXTS[lang];
        const body = fillText(m.unsubscribedBody, {
          code: r.reservation_code,
          business: bot?.business_name ?? '',
        });
        return sendHtml(
          reply.header('referrer-policy', 'no-referrer'),
          page(lang, m.unsubscribedTitle, body),
        );
      },
    );
  };
}
