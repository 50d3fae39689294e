/**
 * Owner e-mails (confirmation, password reset) through nodemailer over `SMTP_URL`. Without it,
 * each mail is written to `<dataDir>/outbox/` as an .eml file (0600, in a 0700 folder) and the log
 * says which file, so the demo works with no mail server (issue 3). The link itself is never
 * logged (issue 24 item 6): a confirmation or reset link signs in whoever opens it, and logs are
 * read, shipped and kept by more people and systems than the data dir; the local user opens the
 * .eml file. Mails are in the owner's interface language (es by default), carry the product name,
 * and have a plain-text part.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';
import { LANG_CODES, type LangCode } from '../schemas.ts';

/** The mails Charla sends owners. */
export type MailKind = 'verify' | 'reset';

type Texts = Record<MailKind, { subject: string; intro: string; action: string; outro: string }>;

/** Mail texts per interface language; Spanish is the source. */
export const MAIL_TEXTS: Record<LangCode, Texts> = {
  es: {
    verify: {
      subject: 'Confirma tu correo en Charla',
      intro: 'Gracias por registrarte en Charla. Confirma tu correo para activar tu cuenta:',
      action: 'Confirmar mi correo',
      outro: 'Si no creaste esta cuenta, ignora este mensaje.',
    },
    reset: {
      subject: 'Restablece tu contraseña de Charla',
      intro: 'Recibimos una solicitud para restablecer tu contraseña. Usa este enlace para elegir una nueva:',
      action: 'Restablecer contraseña',
      outro: 'Si no lo pediste tú, ignora este mensaje: tu contraseña no cambia.',
    },
  },
  en: {
    verify: {
      subject: 'Confirm your e-mail on Charla',
      intro: 'Thanks for signing up to Charla. Confirm your e-mail to activate your account:',
      action: 'Confirm my e-mail',
      outro: 'If you did not create this account, ignore this message.',
    },
    reset: {
      subject: 'Reset your Charla password',
      intro: 'We received a request to reset your password. Use this link to choose a new one:',
      action: 'Reset password',
      outro: 'If you did not ask for it, ignore this message: your password stays the same.',
    },
  },
  fr: {
    verify: {
      subject: 'Confirmez votre e-mail sur Charla',
      intro: 'Merci de vous être inscrit sur Charla. Confirmez votre e-mail pour activer votre compte :',
      action: 'Confirmer mon e-mail',
      outro: 'Si vous n’avez pas créé ce compte, ignorez ce message.',
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe Charla',
      intro: 'Nous avons reçu une demande de réinitialisation de votre mot de passe. Utilisez ce lien :',
      action: 'Réinitialiser le mot de passe',
      outro: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
    },
  },
  de: {
    verify: {
      subject: 'Bestätige deine E-Mail bei Charla',
      intro: 'Danke für deine Anmeldung bei Charla. Bestätige deine E-Mail, um dein Konto zu aktivieren:',
      action: 'E-Mail bestätigen',
      outro: 'Wenn du dieses Konto nicht angelegt hast, ignoriere diese Nachricht.',
    },
    reset: {
      subject: 'Setze dein Charla-Passwort zurück',
      intro: 'Wir haben eine Anfrage zum Zurücksetzen deines Passworts erhalten. Nutze diesen Link:',
      action: 'Passwort zurücksetzen',
      outro: 'Wenn du das nicht angefordert hast, ignoriere diese Nachricht.',
    },
  },
  it: {
    verify: {
      subject: 'Conferma la tua e-mail su Charla',
      intro: 'Grazie per esserti registrato su Charla. Conferma la tua e-mail per attivare l’account:',
      action: 'Conferma la mia e-mail',
      outro: 'Se non hai creato questo account, ignora questo messaggio.',
    },
    reset: {
      subject: 'Reimposta la password di Charla',
      intro: 'Abbiamo ricevuto una richiesta di reimpostazione della password. Usa questo link:',
      action: 'Reimposta password',
      outro: 'Se non l’hai chiesto tu, ignora questo messaggio.',
    },
  },
  ru: {
    verify: {
      subject: 'Подтвердите e-mail в Charla',
      intro: 'Спасибо за регистрацию в Charla. Подтвердите e-mail, чтобы активировать аккаунт:',
      action: 'Подтвердить e-mail',
      outro: 'Если вы не создавали этот аккаунт, просто проигнорируйте письмо.',
    },
    reset: {
      subject: 'Сброс пароля Charla',
      intro: 'Мы получили запрос на сброс пароля. Перейдите по ссылке, чтобы задать новый:',
      action: 'Сбросить пароль',
      outro: 'Если это были не вы, проигнорируйте письмо.',
    },
  },
  hi: {
    verify: {
      subject: 'Charla पर अपना ई-मेल पुष्टि करें',
      intro: 'Charla पर साइन अप करने के लिए धन्यवाद। खाता सक्रिय करने के लिए अपना ई-मेल पुष्टि करें:',
      action: 'मेरा ई-मेल पुष्टि करें',
      outro: 'अगर यह खाता आपने नहीं बनाया, तो इस संदेश को अनदेखा करें।',
    },
    reset: {
      subject: 'अपना Charla पासवर्ड रीसेट करें',
      intro: 'हमें आपका पासवर्ड रीसेट करने का अनुरोध मिला। नया पासवर्ड चुनने के लिए यह लिंक खोलें:',
      action: 'पासवर्ड रीसेट करें',
      outro: 'अगर आपने यह अनुरोध नहीं किया, तो इस संदेश को अनदेखा करें।',
    },
  },
};

/**
 * The interface language of a request: the dashboard's `x-app-language` header, else the first
 * supported `Accept-Language`, else es (the API's language). `headers`: a fetch `Headers` (better-auth)
 * or Node's header record (Fastify's `req.headers`).
 */
export function requestLanguage(
  headers: Headers | Record<string, string | string[] | undefined> | undefined,
): LangCode {
  const get = (name: string): string => {
    if (!headers) return '';
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v) ?? '';
  };
  const codes = LANG_CODES as readonly string[];
  const explicit = get('x-app-language').trim().slice(0, 2).toLowerCase();
  if (codes.includes(explicit)) return explicit as LangCode;
  for (const part of get('accept-language').split(',')) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if (codes.includes(code)) return code as LangCode;
  }
  return 'es';
}

/** One mail as Charla renders it. */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
  /** Files attached to the mail (e.g. a booking's .ics, issue 27 §6), as nodemailer takes them. */
  attachments?: Array<{ filename: string; content: string; contentType: string }>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Renders a mail with its link in both parts. */
export function renderMail(kind: MailKind, lang: LangCode, to: string, link: string): RenderedMail {
  const t = MAIL_TEXTS[lang][kind];
  const text = `Charla\n\n${t.intro}\n\n${link}\n\n${t.outro}\n`;
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1f2937">
<p style="font-size:20px;font-weight:700;color:#0f766e">Charla</p>
<p>${escapeHtml(t.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(t.action)}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(link)}</p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(t.outro)}</p>
</body></html>`;
  return { to, subject: t.subject, text, html, link };
}

/** Sends owner mails. */
export interface Mailer {
  send(mail: RenderedMail): Promise<void>;
}

/**
 * A mailer over `smtpUrl` (nodemailer), or, without one, an outbox folder of .eml files; each
 * one's path (not its link) is logged at info level.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: Logger;
}): Mailer {
  // nodemailer is loaded at the first mail, not at start-up (issue 25: cold start).
  let transporter: Promise<Transporter> | undefined;
  const transport = (settings: string | Record<string, unknown>) =>
    (transporter ??= import('nodemailer').then((m) => m.default.createTransport(settings)));
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    return {
      async send(mail) {
        await (await transport(smtpUrl)).sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.attachments ? { attachments: mail.attachments } : {}),
        });
        options.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  return {
    async send(mail) {
      const stream = await transport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await stream.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.attachments ? { attachments: mail.attachments } : {}),
      });
      mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      const file = join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      options.log.info(
        { to: mail.to, file },
        `mail written to the outbox (no SMTP_URL): ${mail.subject}; its link is in ${file}`,
      );
    },
  };
}
