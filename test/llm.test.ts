/**
 * The LLM path against a local server that speaks the OpenAI Chat Completions wire format:
 * what Charla sends (business fields, style, language, file catalogue, history), and a streamed
 * reply reaching an SSE client token by token over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { enableWeb } from './helpers/owners.ts';
import { type FakeOpenAi, type FakeReply, startFakeOpenAi } from './servers/openai.ts';

/** Reads an SSE response, recording each event with the time it arrived. */
async function readSse(res: Response): Promise<Array<{ event: string; data: unknown; at: number }>> {
  const events: Array<{ event: string; data: unknown; at: number }> = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      events.push({ event, data: JSON.parse(data), at: performance.now() });
      end = buffer.indexOf('\n\n');
    }
  }
  return events;
}

describe.each(dialectsOf(import.meta.url))('LLM over the OpenAI wire format on %s', (kind) => {
  let app: TestApp;
  let llm: FakeOpenAi;
  let url: string;
  let botId: string;
  let next: FakeReply = { text: 'Hola' };

  beforeAll(async () => {
    llm = await startFakeOpenAi({ reply: () => next });
    app = await createTestApp(kind, { llm: fakeLlm(llm.baseURL) });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const owner = await app.owner('chef@example.com');
    const save = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Le Petit Canard',
        business_description: 'Bistrot français à Lyon, cuisine de canard, ouvert du mardi au samedi.',
        chatbot_style: 'formal',
        expectations: 'Que les clients réservent une table.',
        idioma: 'Français',
        category: 'Tienda o Comercio',
      },
    });
    botId = save.json().id;
    // Followers chat with it by id: its web service on (issue 24 §2).
    await enableWeb(http.inject.bind(http), owner.token, botId);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const { multipart } = await import('./helpers/multipart.ts');
    const { body, contentType } = await multipart(
      { chatbotId: botId, keyword: 'menu,carte', context: 'La carte des plats et des vins.' },
      { field: 'file', name: 'carte.pdf', data: pdf },
    );
    const up = await http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType },
      payload: body,
    });
    expect(up.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('sends the business fields, style, language, file catalogue and history', async () => {
    next = { text: 'Bonjour, comment puis-je vous aider ?' };
    const before = llm.requests.length;
    const res = await fetch(`${url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        userMessage: 'Vous êtes ouverts dimanche ?',
        messageHistory: [
          { role: 'user', content: 'Bonjour' },
          { role: 'assistant', content: 'Bonjour ! Que puis-je faire pour vous ?' },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { reply: string }).reply).toBe('Bonjour, comment puis-je vous aider ?');
    expect(llm.requests.length).toBe(before + 1);
    const request = llm.requests.at(-1)!;
    expect(request.model).toBe('test-model');
    expect(request.stream).toBe(true);
    expect(request.authorization).toBe('Bearer test-key');
    const system = request.messages[0]!;
    expect(system.role).toBe('system');
    for (const expected of [
      'Le Petit Canard',
      'Bistrot français à Lyon, cuisine de canard, ouvert du mardi au samedi.',
      'Que les clients réservent une table.',
      '(a shop)', // the category as the model reads it (issue 29)
      'Style: formal',
      'Always answer in French (Français)',
      'carte.pdf (pdf); keywords: menu,carte; about: La carte des plats et des vins.',
      "Follower's state:",
      'Tone guidance:',
    ]) {
      expect(system.content).toContain(expected);
    }
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'Bonjour' },
      { role: 'assistant', content: 'Bonjour ! Que puis-je faire pour vous ?' },
      { role: 'user', content: 'Vous êtes ouverts dimanche ?' },
    ]);
  });

  it('answers normally when the history holds an over-long item, cut to 8,000 characters (issue 10)', async () => {
    next = { text: 'Très bien, je résume.' };
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(300)}FIN`.slice(0, 8500);
    const send = (userMessage: string, extra: object = {}) =>
      fetch(`${url}/api/chatbot-message/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userMessage, ...extra }),
      });
    // The message itself over the limit is refused, with the reason.
    const refused = await send(long);
    expect(refused.status).toBe(400);
    // Resent as history (what a chat client does with the message it showed), it no longer fails
    // every later turn: the turn is answered and the LLM gets the item's first 8,000 characters.
    const before = llm.requests.length;
    const res = await send('Résumez, svp.', {
      messageHistory: [
        { role: 'user', content: long },
        { role: 'assistant', content: 'Bonjour !' },
      ],
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { reply: string }).reply).toBe('Très bien, je résume.');
    expect(llm.requests.length).toBe(before + 1);
    expect(llm.requests.at(-1)!.messages.slice(1)).toEqual([
      { role: 'user', content: long.slice(0, 8000) },
      { role: 'assistant', content: 'Bonjour !' },
      { role: 'user', content: 'Résumez, svp.' },
    ]);
  });

  it('uses the stored history of an identified follower when the client sends none', async () => {
    next = { text: 'Oui.' };
    const post = (userMessage: string) =>
      fetch(`${url}/api/chatbot-message/${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userMessage, visitorId: 'visitor-7' }),
      });
    await post('Première question');
    await post('Deuxième question');
    const messages = llm.requests.at(-1)!.messages.slice(1);
    expect(messages).toEqual([
      { role: 'user', content: 'Première question' },
      { role: 'assistant', content: 'Oui.' },
      { role: 'user', content: 'Deuxième question' },
    ]);
  });

  it('streams the reply to an SSE client token by token', async () => {
    const tokens = ['Nous ', 'sommes ', 'ouverts ', 'du ', 'mardi ', 'au ', 'samedi.'];
    next = { text: tokens.join(''), chunks: tokens, chunkDelayMs: 40 };
    const started = performance.now();
    const res = await fetch(`${url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ userMessage: 'Quels sont vos horaires ?' }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    const tokenEvents = events.filter((e) => e.event === 'token');
    expect(tokenEvents.map((e) => (e.data as { text: string }).text)).toEqual(tokens);
    // Each token arrived on its own, as the model produced it: the first long before the last.
    expect(tokenEvents[0]!.at - started).toBeLessThan(tokenEvents.at(-1)!.at - started - 150);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toMatchObject({ reply: tokens.join(''), attachment: null });
  });

  it('streams a file turn with its attachment in the final event', async () => {
    next = { text: 'Voici notre carte.' };
    const res = await fetch(`${url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ userMessage: 'Je peux voir la carte ?' }),
    });
    const events = await readSse(res);
    const done = events.find((e) => e.event === 'done')!.data as {
      attachment: { type: string; url: string; caption: string };
    };
    expect(done.attachment.type).toBe('pdf');
    expect(done.attachment.caption).toMatch(/PDF/);
    const file = await fetch(
      done.attachment.url.startsWith('http') ? done.attachment.url : `${url}${done.attachment.url}`,
    );
    expect(file.headers.get('content-type')).toBe('application/pdf');
  });

  it('keeps the status code for errors a streamed request hits before streaming', async () => {
    const res = await fetch(`${url}/api/chatbot-message/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ userMessage: 'hola' }),
    });
    expect(res.status).toBe(404);
  });

  it('retries a failing LLM a bounded number of times (429/5xx), then gives up', async () => {
    const { createOpenAiClient } = await import('../engine/conversation/llm.ts');
    let hits = 0;
    const flaky = await startFakeOpenAi({
      reply: () => (++hits < 3 ? { status: 503, text: 'busy' } : { text: 'Enfin !' }),
    });
    const retrying = createOpenAiClient({
      baseURL: flaky.baseURL,
      apiKey: 'k',
      model: 'm',
      timeoutMs: 5_000,
      maxRetries: 2,
    });
    await expect(retrying.complete([{ role: 'user', content: 'x' }])).resolves.toBe('Enfin !');
    expect(hits).toBe(3);
    hits = -10;
    await expect(retrying.complete([{ role: 'user', content: 'x' }])).rejects.toThrow();
    expect(hits).toBe(-7);
    await flaky.close();
  });
});
