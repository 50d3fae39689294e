// @vitest-environment happy-dom
/**
 * The test chat of /main as the owner uses it (spec 000 §2, §4, §8), rendered with Testing Library
 * in Spanish: opening it loads the bot's configuration and shows its greeting; Enter sends the
 * message, Shift+Enter adds a line instead, an empty or blank message is not sent; while a reply is
 * pending the input is disabled and "Escribiendo..." shows, then the streamed reply appears; and
 * each failure shows the spec's Spanish text (no bot, no configuration, configuration unreadable or
 * invalid, no connection, a failed reply). The network is a fake fetch at the global boundary that
 * streams Server-Sent Events like POST /api/chatbot-message and checks each request and reply
 * against the route's own schemas (ChatMessageBody, ChatMessageReply).
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatMessageBody, ChatMessageReply } from '../../adapters/web/contract.ts';
import { TestChat } from '../../dashboard/src/components/TestChat.tsx';
import type { Attachment, FileRef } from '../../engine/schemas.ts';
import { FakeFetch, installNetwork, json, renderApp, type SeenRequest, spanish } from './harness.tsx';

const BOT = 'bot-1';
const CONFIG = /^\/api\/chatbot-config\//;
const MESSAGE = /^\/api\/chatbot-message\//;
const GREETING = '¡Hola! Soy el asistente de El Pato Pepe. ¿En qué puedo ayudarte?';

/** GET /api/chatbot-config/:id's 200 answer (adapters/web/bot-chat.ts). */
const config = {
  id: BOT,
  business_name: 'El Pato Pepe',
  idioma: 'Español',
  category: 'Empresa o Profesional',
  chatbot_style: 'casual',
  enable_web_search: false,
  enable_audio: false,
  greeting: GREETING,
};

/** A streamed turn of POST /api/chatbot-message (Accept: text/event-stream), driven by the test. */
class Turn {
  readonly response: Response;
  private controller!: ReadableStreamDefaultController<Uint8Array>;

  constructor(readonly request: SeenRequest) {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
    });
    this.response = new Response(stream, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    });
  }

  /** Sends one event in engine/http/sse.ts's format and lets the component read it. */
  async send(event: string, data: unknown) {
    await act(async () => {
      this.controller.enqueue(new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }

  /** The final `done` event (checked against the route's reply schema), then the end of the stream. */
  async done(fields: { reply: string; attachment?: Attachment | null; lista?: FileRef[] }) {
    const reply = ChatMessageReply.parse({
      reply: fields.reply,
      attachment: fields.attachment ?? null,
      archivosEnviados: fields.attachment ? [fields.attachment.fileId] : [],
      contenedorEmpatico: {
        archivos: {
          action: fields.lista ? 'LIST' : fields.attachment ? 'SEND' : 'NONE',
          lista: fields.lista ?? [],
        },
      },
      offline: true,
      duplicate: false,
      silent: false,
      heard: '',
      voice: null,
    });
    await this.send('done', reply);
    await this.end();
  }

  async end() {
    await act(async () => {
      this.controller.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}

let api: FakeFetch;
let turns: Turn[];

/** The fake chat routes: the bot's config, and turns that validate their body and wait for the test. */
function chatRoutes(): FakeFetch {
  turns = [];
  return new FakeFetch()
    .on('GET', CONFIG, (req) =>
      req.path === `/api/chatbot-config/${BOT}` ? json(200, config) : json(404, { error: 'not found' }),
    )
    .on('POST', MESSAGE, (req) => {
      ChatMessageBody.parse(req.body);
      const turn = new Turn(req);
      turns.push(turn);
      return turn.response;
    });
}

beforeAll(spanish);
beforeEach(() => {
  api = chatRoutes();
  installNetwork(api);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Renders the chat, opens it and waits for the greeting. */
async function openChat(chatbotId: string | null = BOT) {
  const user = userEvent.setup();
  renderApp(<TestChat chatbotId={chatbotId} />);
  await user.click(screen.getByRole('button', { name: 'Probar el chatbot' }));
  return user;
}

const input = () => screen.getByRole('textbox', { name: 'Escribe tu mensaje...' });
const sendButton = () => screen.getByRole('button', { name: 'Enviar' });
const chatLog = () => screen.getByRole('region', { name: /^Chat de/ });

describe('TestChat', () => {
  it('opens as "Chat de {negocio}" with the bot’s greeting', async () => {
    await openChat();
    expect(await screen.findByText(GREETING)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Chat de El Pato Pepe' })).toBeTruthy();
    expect(api.seen('GET', CONFIG).at(-1)?.path).toBe(`/api/chatbot-config/${BOT}`);
  });

  it('Enter sends the message; while the reply is pending the input is disabled and "Escribiendo..." shows', async () => {
    const user = await openChat();
    await screen.findByText(GREETING);
    await user.type(input(), '¿Tenéis la carta?{Enter}');

    await waitFor(() => expect(turns).toHaveLength(1));
    const turn = turns[0]!;
    expect(turn.request.headers.get('accept')).toBe('text/event-stream');
    expect(turn.request.body).toEqual({
      userMessage: '¿Tenéis la carta?',
      messageHistory: [{ role: 'assistant', content: GREETING }],
      archivosMostrados: [],
      archivosEnviados: [],
      channel: 'test',
      // One follower id for the tab: a booking dialogue keeps its place between messages.
      visitorId: expect.stringMatching(/^test-[0-9a-f-]{36}$/),
    });
    // The message shows at once, the input is emptied and waits.
    expect(within(chatLog()).getByText('¿Tenéis la carta?')).toBeTruthy();
    expect((input() as HTMLTextAreaElement).value).toBe('');
    expect((input() as HTMLTextAreaElement).disabled).toBe(true);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Escribiendo...');

    // The reply streams in, replacing the typing indicator.
    await turn.send('token', { text: 'Sí, ' });
    expect(within(chatLog()).getByText('Sí,')).toBeTruthy();
    expect(screen.queryByText('Escribiendo...')).toBeNull();
    await turn.send('token', { text: 'aquí la tienes.' });
    await turn.done({ reply: 'Sí, aquí la tienes.' });

    expect(await within(chatLog()).findByText('Sí, aquí la tienes.')).toBeTruthy();
    expect((input() as HTMLTextAreaElement).disabled).toBe(false);
    expect(screen.queryByText('Escribiendo...')).toBeNull();
  });

  it('Shift+Enter adds a line instead of sending; Enter then sends both lines', async () => {
    const user = await openChat();
    await screen.findByText(GREETING);
    await user.type(input(), 'Hola{Shift>}{Enter}{/Shift}mundo');

    expect((input() as HTMLTextAreaElement).value).toBe('Hola\nmundo');
    expect(api.seen('POST', MESSAGE)).toHaveLength(0);

    await user.type(input(), '{Enter}');
    await waitFor(() => expect(turns).toHaveLength(1));
    expect((turns[0]!.request.body as { userMessage: string }).userMessage).toBe('Hola\nmundo');
  });

  it('does not send an empty or blank message', async () => {
    const user = await openChat();
    await screen.findByText(GREETING);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    await user.type(input(), '{Enter}');
    await user.type(input(), '   {Enter}');
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(sendButton());
    expect(api.seen('POST', MESSAGE)).toHaveLength(0);
    expect(
      within(chatLog())
        .queryAllByText(/\S/, { selector: 'p' })
        .map((p) => p.textContent),
    ).toEqual([GREETING]);
  });

  it('sends a message with the button too, and the text is trimmed', async () => {
    const user = await openChat();
    await screen.findByText(GREETING);
    await user.type(input(), '  Hola  ');
    await user.click(sendButton());
    await waitFor(() => expect(turns).toHaveLength(1));
    expect((turns[0]!.request.body as { userMessage: string }).userMessage).toBe('Hola');
  });

  it('shows a sent file and sends an offered list back on the next turn', async () => {
    const user = await openChat();
    await screen.findByText(GREETING);
    const menu: FileRef = { id: 'f-menu', file_name: 'carta.pdf', file_type: 'pdf', keyword: 'carta' };
    const photo: FileRef = { id: 'f-foto', file_name: 'local.jpg', file_type: 'image', keyword: 'foto' };

    await user.type(input(), 'archivos{Enter}');
    await waitFor(() => expect(turns).toHaveLength(1));
    await turns[0]!.done({ reply: 'Tengo estos archivos: 1. carta.pdf 2. local.jpg', lista: [menu, photo] });
    await within(chatLog()).findByText(/Tengo estos archivos/);

    await user.type(input(), '1{Enter}');
    await waitFor(() => expect(turns).toHaveLength(2));
    expect(turns[1]!.request.body).toMatchObject({ userMessage: '1', archivosMostrados: [menu, photo] });
    await turns[1]!.done({
      reply: 'Aquí tienes la carta.',
      attachment: {
        url: 'http://localhost:3000/files/owner-1/carta.pdf',
        type: 'pdf',
        name: 'carta.pdf',
        mime: 'application/pdf',
        fileId: 'f-menu',
        caption: '',
      },
    });
    const link = await within(chatLog()).findByRole('link', { name: /carta\.pdf/ });
    expect(link.getAttribute('href')).toBe('http://localhost:3000/files/owner-1/carta.pdf');
    expect(link.textContent).toContain('Abrir el archivo');
  });

  describe('errors', () => {
    it('without a bot: says so under its own title, offers /configure instead of an input, fetches nothing', async () => {
      await openChat(null);
      expect(
        await screen.findByText(
          'No encontramos tu configuración. Por favor, crea tu chatbot antes de chatear.',
        ),
      ).toBeTruthy();
      // Issue 10: not "Chat de " with an empty name and an input that leads nowhere.
      expect(screen.getByRole('heading', { name: 'Prueba tu chatbot' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: /^Chat de/ })).toBeNull();
      expect(screen.queryByRole('textbox')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Enviar' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Configurar mi chatbot' }).getAttribute('href')).toBe(
        '/configure',
      );
      expect(api.requests).toHaveLength(0);
    });

    it('a bot with no configuration (404) says so and forgets the stored bot id', async () => {
      localStorage.setItem('chatbotId', 'gone');
      await openChat('gone');
      expect(
        await screen.findByText('No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!'),
      ).toBeTruthy();
      expect(localStorage.getItem('chatbotId')).toBeNull();
    });

    it.each([
      [
        'the configuration cannot be loaded (500)',
        () => json(500, { error: 'boom' }),
        'No pudimos cargar la configuración del bot. Intenta más tarde.',
      ],
      [
        'the configuration has no id',
        () => json(200, { ...config, id: undefined }),
        'No se encontró el identificador del bot. Por favor, configura tu bot correctamente.',
      ],
      [
        'the configuration has no business name',
        () => json(200, { ...config, business_name: '' }),
        'La configuración del chatbot es inválida. Revisa los datos en la sección de configuración.',
      ],
      [
        'the server cannot be reached',
        () => {
          throw new TypeError('Failed to fetch');
        },
        'No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
      ],
    ])('on opening, when %s', async (_case, answer, text) => {
      api.on('GET', CONFIG, answer);
      await openChat();
      expect(await screen.findByText(text)).toBeTruthy();
      expect(screen.queryByText(GREETING)).toBeNull();
    });

    const MESSAGE_ERROR = 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.';
    it.each([
      [
        'the bot is gone (404)',
        404,
        'No existe configuración para tu bot. ¡Configúralo y vuelve a intentarlo!',
      ],
      ['the server fails (500)', 500, MESSAGE_ERROR],
    ])('on sending, when %s', async (_case, status, text) => {
      api.on('POST', MESSAGE, () => json(status, { error: 'x' }));
      const user = await openChat();
      await screen.findByText(GREETING);
      await user.type(input(), 'Hola{Enter}');
      expect(await screen.findByText(text)).toBeTruthy();
      expect((input() as HTMLTextAreaElement).disabled).toBe(false);
    });

    it('on sending, when the stream reports an error or ends without an answer', async () => {
      const user = await openChat();
      await screen.findByText(GREETING);
      await user.type(input(), 'Hola{Enter}');
      await waitFor(() => expect(turns).toHaveLength(1));
      await turns[0]!.send('token', { text: 'Un mom' });
      await turns[0]!.send('error', { error: 'No pudimos responder en este momento.' });
      await turns[0]!.end();
      expect(await screen.findAllByText(MESSAGE_ERROR)).toHaveLength(1);
      expect(screen.queryByText('Un mom')).toBeNull();

      await user.type(input(), 'Otra vez{Enter}');
      await waitFor(() => expect(turns).toHaveLength(2));
      // The error bubble is not part of the history sent back.
      expect((turns[1]!.request.body as { messageHistory: unknown[] }).messageHistory).toEqual([
        { role: 'assistant', content: GREETING },
        { role: 'user', content: 'Hola' },
      ]);
      await turns[1]!.end();
      await waitFor(() => expect(screen.getAllByText(MESSAGE_ERROR)).toHaveLength(2));
    });

    it('on sending, when the connection fails: "No pudimos conectar con el servidor…"', async () => {
      api.offline('POST', MESSAGE);
      const user = await openChat();
      await screen.findByText(GREETING);
      await user.type(input(), 'Hola{Enter}');
      expect(
        await screen.findByText(
          'No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
        ),
      ).toBeTruthy();
      expect((input() as HTMLTextAreaElement).disabled).toBe(false);
    });
  });
});
