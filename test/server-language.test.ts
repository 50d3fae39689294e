/**
 * Issue 29 "Language": no server message an owner sees is left in Spanish (or English) when the
 * dashboard speaks another language. Owner routes answer their refusals in the dashboard's
 * `x-app-language` (engine/http/error-language.ts): each probe below — bad input to save-chatbot,
 * files, Telegram and WhatsApp connect (a token the local fake Telegram refuses), the reservation
 * calendar, a bot that is not the owner's — is sent with `x-app-language: hi` and must answer
 * Hindi (no Latin-script word but brand names, identifiers, URLs and numbers). The same probes in
 * Spanish keep the spec's Spanish texts. A channel's stored last error is answered as a code
 * (adapters/shared/channel-errors.ts) with a translation in every locale.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_ERROR_CODES, channelErrorCode } from '../adapters/shared/channel-errors.ts';
import { TELEGRAM_ERRORS } from '../adapters/telegram/texts.ts';
import { TEMPLATE_NOTES } from '../adapters/whatsapp/cloud/template-texts.ts';
import { fillText, WHATSAPP_ERRORS } from '../adapters/whatsapp/texts.ts';
import { BOT_NOT_FOUND, INVALID_DATA, SERVER_ERROR } from '../engine/errors.ts';
import { FILE_MESSAGES } from '../engine/files.ts';
import { SIGN_IN_REQUIRED } from '../engine/http/auth.ts';
import { localizeError } from '../engine/http/error-language.ts';
import { PROCESSING_ERROR, VOICE_SEND_ERROR } from '../plugins/audio-effects/api.ts';
import { NOTHING_TO_SEND } from '../plugins/broadcasts/api.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { latinWords } from './helpers/latin-words.ts';
import { multipart } from './helpers/multipart.ts';
import { type App, ownerWithBot, withInject } from './helpers/owners.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const LOCALES = ['es', 'en', 'fr', 'de', 'it', 'ru', 'hi'] as const;
const locale = (code: string) =>
  JSON.parse(
    readFileSync(new URL(`../dashboard/src/i18n/locales/${code}.json`, import.meta.url), 'utf8'),
  ) as Record<string, Record<string, string>>;

describe('channel last errors as codes', () => {
  it('codes every text the adapters store, and each code has a text in every locale', () => {
    const cases: Array<[string, string, Record<string, string | number>]> = [
      [WHATSAPP_ERRORS.loggedOut, 'whatsapp_logged_out', {}],
      [
        fillText(WHATSAPP_ERRORS.window24h, { chat: '34600111222' }),
        'whatsapp_window_24h',
        { chat: '34600111222' },
      ],
      [
        fillText(WHATSAPP_ERRORS.fileRefused, { file: 'carta.pdf', reason: 'too big' }),
        'whatsapp_file_refused',
        { file: 'carta.pdf' },
      ],
      [
        fillText(TEMPLATE_NOTES.refused, { template: 'charla_x', chat: '346', reason: 'bad' }),
        'whatsapp_template_refused',
        { template: 'charla_x', chat: '346' },
      ],
      ['401: Telegram rechazó el token (Unauthorized)', 'telegram_token_rejected', { status: 401 }],
      ['Wrong response from the webhook: 502 Bad Gateway', 'telegram_webhook_failing', { status: 502 }],
      ['fetch failed', 'channel_unreachable', {}],
      ['Some provider sentence nobody planned', 'channel_error', { code: '—' }],
    ];
    for (const [text, code, params] of cases) expect(channelErrorCode(text), text).toEqual({ code, params });
    expect(channelErrorCode(null)).toBeNull();
    for (const lang of LOCALES) {
      const texts = locale(lang).channelErrors ?? {};
      for (const code of CHANNEL_ERROR_CODES) expect(texts[code], `${lang}: ${code}`).toBeTruthy();
    }
  });
});

describe('the server texts catalog', () => {
  it('translates every owner-facing text of the engine and the channels, and nothing unknown stays Spanish', () => {
    const wa = WHATSAPP_ERRORS;
    const texts = [
      ...Object.values(TELEGRAM_ERRORS).map((t) => fillText(t, { actual: 'otro_bot' })),
      ...[wa.configureFirst, wa.missingData, wa.requestFailed, wa.noDays, wa.badPhone, wa.notLinking],
      ...[wa.pairingUnavailable, wa.cloudRequired, wa.cloudUnreachable, wa.cloudInUse, wa.cloudNoSecret],
      ...[wa.metaNotConfigured, wa.metaNoBusinesses, wa.metaNoWhatsApp],
      FILE_MESSAGES.tooBig('carta.pdf'),
      FILE_MESSAGES.badFormat('carta.exe'),
      FILE_MESSAGES.notValid('carta.pdf', 'pdf'),
      ...[FILE_MESSAGES.tooMany, FILE_MESSAGES.botFull, FILE_MESSAGES.required, FILE_MESSAGES.updateFailed],
      ...[
        SERVER_ERROR,
        INVALID_DATA,
        BOT_NOT_FOUND,
        SIGN_IN_REQUIRED,
        NOTHING_TO_SEND,
        VOICE_SEND_ERROR,
        PROCESSING_ERROR,
      ],
      'Un texto en español que nadie tradujo todavía.',
    ];
    for (const text of texts) {
      const hindi = localizeError(text, 'hi', 400);
      expect(hindi, text).toMatch(/[\u0900-\u097F]/);
      expect(latinWords(hindi), hindi).toEqual([]);
      expect(localizeError(text, 'en', 400), text).not.toBe(text);
      expect(localizeError(text, 'es', 400)).toBe(text);
    }
    // Texts a route already gave in the request's language pass as they are.
    expect(localizeError('Das Format ist nicht erlaubt.', 'de', 415)).toBe('Das Format ist nicht erlaubt.');
    // Environment variable names never reach an owner who is not reading Spanish.
    expect(localizeError(wa.metaNotConfigured, 'en', 400)).not.toMatch(/META_APP_ID/);
  });
});

describe.each(dialectsOf(import.meta.url))('owner errors in the dashboard language (%s)', (kind) => {
  let app: App;
  let telegram: FakeTelegram;
  let token = '';
  let botId = '';

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    app = await withInject(
      await createTestApp(kind, { env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' } }),
    );
    ({ token, botId } = await ownerWithBot(app, 'idioma@example.com', { business_name: 'Casa Pepa' }));
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
  });

  /** The owner probes: what a dashboard can send that the server refuses. */
  const probes = () => {
    const json = (method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: unknown) => ({
      method,
      url,
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    return [
      json('POST', '/api/save-chatbot', { business_name: 'x'.repeat(500) }),
      json('POST', '/api/save-chatbot', { business_description: 42 }),
      json('PATCH', '/api/chatbot-files/00000000-0000-0000-0000-000000000000', { keyword: 'carta' }),
      json('POST', '/api/verify-telegram', {
        chatbotId: botId,
        telegramToken: 'abc',
        telegramUsername: 'x_bot',
      }),
      json('POST', '/api/verify-telegram', {
        chatbotId: botId,
        telegramToken: '123456:abcdefghijklmnopqrstuvwxyz0123456789',
        telegramUsername: 'x_bot',
      }),
      json('POST', '/api/verify-telegram', { chatbotId: botId, telegramToken: '', telegramUsername: '' }),
      json('POST', '/api/request-whatsapp-number', { chatbotId: botId, phoneNumber: 'abc' }),
      json('POST', '/api/connect-whatsapp-cloud', { chatbotId: botId }),
      json('PUT', `/api/reservations/${botId}/config`, { timezone: 12 }),
      json('GET', '/api/reservations/someone-elses-bot/config'),
      json('GET', '/api/get-telegram-config?chatbotId=someone-elses-bot'),
    ];
  };

  it('answers every refusal in Hindi for a Hindi dashboard, and in Spanish for a Spanish one', async () => {
    const upload = await multipart(
      { chatbotId: botId },
      { field: 'file', name: 'virus.exe', data: Buffer.from('MZ') },
    );
    const answers: Array<{ lang: string; url: string; status: number; error: string }> = [];
    for (const lang of ['hi', 'es'] as const) {
      const headers = { authorization: `Bearer ${token}`, 'x-app-language': lang, 'accept-language': lang };
      for (const p of probes()) {
        const res = await app.inject({ ...p, headers });
        answers.push({
          lang,
          url: `${p.method} ${p.url}`,
          status: res.statusCode,
          error: String(res.json().error),
        });
      }
      const file = await app.inject({
        method: 'POST',
        url: '/api/chatbot-files',
        headers: { ...headers, 'content-type': upload.contentType },
        payload: upload.body,
      });
      answers.push({
        lang,
        url: 'POST /api/chatbot-files',
        status: file.statusCode,
        error: String(file.json().error),
      });
      const anonymous = await app.inject({
        method: 'GET',
        url: `/api/reservations/${botId}/config`,
        headers: { 'x-app-language': lang },
      });
      answers.push({
        lang,
        url: 'anonymous',
        status: anonymous.statusCode,
        error: String(anonymous.json().error),
      });
    }
    for (const a of answers) expect(a.status, a.url).toBeGreaterThanOrEqual(400);
    const hindi = answers.filter((a) => a.lang === 'hi');
    for (const a of hindi) {
      expect(a.error, a.url).toMatch(/[\u0900-\u097F]/);
      expect(latinWords(a.error), `${a.url}: ${a.error}`).toEqual([]);
    }
    const spanish = answers.filter((a) => a.lang === 'es');
    expect(spanish.find((a) => a.url.includes('someone-elses-bot/config'))?.error).toMatch(/[a-z]/);
    expect(spanish.some((a) => /Telegram rechazó el token/.test(a.error))).toBe(true);
  });
});
