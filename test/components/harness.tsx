/**
 * What the dashboard component tests share: rendering a component the way main.tsx does (StrictMode,
 * a TanStack Query client, the real i18n instance in Spanish, plus sonner's <Toaster/> so toasts are
 * visible), and fakes of the browser's network objects (fetch, XMLHttpRequest, EventSource)
 * installed at the global boundary. The components run unchanged against them; the fakes answer
 * with the shapes of the real routes (engine/http/routes/files.ts and chat.ts) and check every
 * record they serve against the routes' own zod schemas, so a fixture that drifts from the API fails
 * the test instead of passing silently.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render } from '@testing-library/react';
import { type ReactNode, StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Toaster } from 'sonner';
import { vi } from 'vitest';
import { i18n, initI18n } from '../../dashboard/src/i18n/index.ts';
import { FileRecord } from '../../engine/http/views.ts';
import type { FileType } from '../../engine/schemas.ts';

// The suite runs next to heavy browser tests on two workers: give findBy*/waitFor room to breathe.
configure({ asyncUtilTimeout: 5000 });

/** Loads the real dashboard texts in Spanish, the default language. */
export async function spanish(): Promise<void> {
  localStorage.clear();
  await initI18n();
  await i18n.changeLanguage('es');
}

/** Renders `ui` inside the providers the dashboard gives it, with a toaster to show toasts. */
export function renderApp(ui: ReactNode) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <Toaster />
          {ui}
        </I18nextProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

/** A request as the fake fetch received it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Handler = (req: SeenRequest) => Response | Promise<Response>;

/** JSON response, as Fastify sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: status === 204 ? {} : { 'content-type': 'application/json; charset=utf-8' },
  });
}

/**
 * A fake `fetch`: routes by method and path pattern to handlers; answers 404 `{error}` for anything
 * unrouted (and records it, so a test sees an unexpected call). `fail` makes the next matching call
 * reject like a network failure.
 */
export class FakeFetch {
  readonly requests: SeenRequest[] = [];
  private readonly routes: { method: string; pattern: RegExp; handler: Handler }[] = [];

  /** Adds a route; a later route for the same request wins. */
  on(method: string, pattern: RegExp, handler: Handler): this {
    this.routes.unshift({ method, pattern, handler });
    return this;
  }

  /** Makes requests matching `method` and `pattern` reject with a TypeError (no connection). */
  offline(method: string, pattern: RegExp): this {
    return this.on(method, pattern, () => {
      throw new TypeError('Failed to fetch');
    });
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost:3000');
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const req: SeenRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : JSON.parse(text),
    };
    this.requests.push(req);
    const route = this.routes.find((r) => r.method === method && r.pattern.test(url.pathname));
    if (!route) return json(404, { error: `no fake route for ${method} ${url.pathname}` });
    return route.handler(req);
  };

  /** The requests seen for a method and path pattern. */
  seen(method: string, pattern: RegExp): SeenRequest[] {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path));
  }
}

/** One XMLHttpRequest the component made (FilesManager's upload), driven by the test. */
export class FakeXhr {
  static readonly made: FakeXhr[] = [];
  method = '';
  url = '';
  form: FormData | null = null;
  status = 0;
  responseText = '';
  readonly upload: { onloadstart: (() => void) | null; onload: (() => void) | null } = {
    onloadstart: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private stage: 'created' | 'sending' | 'sent' | 'done' = 'created';

  constructor() {
    FakeXhr.made.push(this);
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  send(body: FormData) {
    this.form = body;
  }

  /** The file part of the multipart form. */
  get file(): File {
    const file = this.form?.get('file');
    if (!(file instanceof File)) throw new Error('the upload has no file part');
    return file;
  }

  /** The browser starts sending the body (upload `loadstart`). */
  startSending() {
    if (this.stage !== 'created') return;
    this.stage = 'sending';
    act(() => this.upload.onloadstart?.());
  }

  /** The whole body is sent; the server is converting and storing (upload `load`). */
  finishSending() {
    this.startSending();
    if (this.stage !== 'sending') return;
    this.stage = 'sent';
    act(() => this.upload.onload?.());
  }

  /** The server answers: the remaining upload stages, then `load` with the status and body. */
  async respond(status: number, body: unknown) {
    this.finishSending();
    this.stage = 'done';
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    await act(async () => this.onload?.());
  }

  /** The connection drops (`error`). */
  async failNetwork() {
    this.stage = 'done';
    await act(async () => this.onerror?.());
  }
}

/** A fake EventSource (FilesManager's live updates); `emit` delivers an event to open sources. */
export class FakeEventSource {
  static readonly opened: FakeEventSource[] = [];
  closed = false;
  private readonly listeners = new Map<string, ((e: MessageEvent) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.closed = true;
  }

  /** Sends `event` with JSON `data` to every open source whose URL contains `urlPart`. */
  static async emit(urlPart: string, event: string, data: unknown) {
    await act(async () => {
      for (const source of FakeEventSource.opened.filter((s) => !s.closed && s.url.includes(urlPart)))
        for (const listener of source.listeners.get(event) ?? [])
          listener(new MessageEvent(event, { data: JSON.stringify(data) }));
    });
  }
}

/** Installs the fakes as the globals the components use; vi.unstubAllGlobals() restores them. */
export function installNetwork(api: FakeFetch) {
  FakeXhr.made.length = 0;
  FakeEventSource.opened.length = 0;
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('EventSource', FakeEventSource);
}

const MIME: Record<FileType, string> = {
  image: 'image/jpeg',
  pdf: 'application/pdf',
  audio: 'audio/ogg',
  video: 'video/webm',
  document: 'text/plain',
};

let nextId = 1;

/** A file record as the API returns it, checked against the route's schema (FileRecord). */
export function fileRecord(
  fields: Partial<FileRecord> & { file_name: string; file_type: FileType; chatbot_id: string },
): FileRecord {
  const id = fields.id ?? `file-${nextId++}`;
  const file_url = `owner-1/${fields.file_name}`;
  return FileRecord.parse({
    id,
    keyword: '',
    context: '',
    file_url,
    publicUrl: `http://localhost:3000/files/${file_url}`,
    mime_type: MIME[fields.file_type],
    size_bytes: 1234,
    created_at: new Date('2025-01-01T10:00:00Z').toISOString(),
    ...fields,
  });
}
