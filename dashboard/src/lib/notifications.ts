/**
 * The dashboard's side of owner notifications (issue 27 §1): the owner's settings (which events
 * reach them on which route, and the mails' language), the live stream of in-page alerts, and Web
 * Push on this device. Server side: plugins/notifications (routes under `/api/notifications/`).
 *
 * - `GET|PUT /api/notifications/settings` → {@link NotificationSettings} (PUT takes a
 *   {@link SettingsPatch}; fields left out keep their value).
 * - `GET /api/notifications/stream`: Server-Sent Events, `notification` events of an
 *   {@link OwnerNotification}, already in the owner's language.
 * - `GET /api/notifications/push/key` → `{ publicKey }` (the VAPID public key, base64url, or null);
 *   `POST|DELETE /api/notifications/push/subscriptions` keep this device's subscription.
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiCall } from './api.ts';

/** The routes an event can take to the owner, in the screen's column order. */
export const ROUTES = ['email', 'telegram', 'push', 'page'] as const;
/** One of {@link ROUTES}. */
export type NotifyRoute = (typeof ROUTES)[number];

/**
 * The event kinds the screen knows how to name, in its row order (plugins/notifications/texts.ts
 * `EVENT_KINDS`). A kind the server answers that is not here is not shown; one here the server does
 * not answer is not shown either.
 */
export const KNOWN_KINDS = [
  'new_conversation',
  'asks_person',
  'booking_new',
  'booking_changed',
  'channel_down',
  'days_running_out',
] as const;

/** The mail languages (the dashboard's seven). */
export type MailLanguage = 'es' | 'en' | 'fr' | 'de' | 'it' | 'ru' | 'hi';

/** Which routes one event kind takes. */
export type RouteChoices = Record<NotifyRoute, boolean>;

/** The owner's settings as `GET /api/notifications/settings` answers them. */
export interface NotificationSettings {
  language: MailLanguage;
  events: Record<string, RouteChoices>;
  /** The owner's own Telegram is linked (the Conversations screen's "link your phone"). */
  telegramLinked: boolean;
  /** The operator set VAPID keys: Web Push can be turned on. */
  pushAvailable: boolean;
}

/** A `PUT /api/notifications/settings` body: only what changes. */
export interface SettingsPatch {
  language?: MailLanguage;
  events?: Record<string, Partial<RouteChoices>>;
}

/** One alert of the stream (`notification` event), title and body in the owner's language. */
export interface OwnerNotification {
  id: string;
  kind: string;
  chatbotId: string | null;
  title: string;
  body: string;
  /** Where it leads: the conversation, the bookings, the account (absolute or a path). */
  url: string;
  /** ISO time. */
  at: string;
}

const NO_ROUTE: RouteChoices = { email: false, telegram: false, push: false, page: false };

/**
 * The settings in the shape above, whatever the server sent: an event given as a plain boolean
 * (mail on or off, the plugin's first version) becomes its e-mail choice; missing flags are false.
 */
export function normalizeSettings(raw: unknown): NotificationSettings {
  const r = (raw ?? {}) as Record<string, unknown>;
  const events: Record<string, RouteChoices> = {};
  for (const [kind, value] of Object.entries((r.events ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'boolean') events[kind] = { ...NO_ROUTE, email: value };
    else if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      events[kind] = Object.fromEntries(ROUTES.map((k) => [k, v[k] === true])) as RouteChoices;
    }
  }
  return {
    language: (typeof r.language === 'string' ? r.language : 'es') as MailLanguage,
    events,
    telegramLinked: r.telegramLinked === true,
    pushAvailable: r.pushAvailable === true,
  };
}

/** The owner's settings, `GET /api/notifications/settings`. */
export const notificationSettingsQuery = queryOptions({
  queryKey: ['notification-settings'],
  queryFn: async () => normalizeSettings(await apiCall('GET', '/api/notifications/settings')),
});

/**
 * Saves a change with `PUT /api/notifications/settings` and answers the settings after it.
 * @throws ApiError (`network`, `server`, or the server's code).
 */
export async function saveNotificationSettings(patch: SettingsPatch): Promise<NotificationSettings> {
  return normalizeSettings(await apiCall('PUT', '/api/notifications/settings', patch));
}

/** `settings` with `patch` applied (what the screen shows before the server has answered). */
export function applyPatch(settings: NotificationSettings, patch: SettingsPatch): NotificationSettings {
  const events = { ...settings.events };
  for (const [kind, routes] of Object.entries(patch.events ?? {})) {
    events[kind] = { ...(events[kind] ?? NO_ROUTE), ...routes };
  }
  return { ...settings, ...(patch.language ? { language: patch.language } : {}), events };
}

/** What to do with one alert of the stream. */
export type AlertHandler = (n: OwnerNotification) => void;

/** First wait before opening a dropped stream again, ms (doubles up to {@link STREAM_RETRY_MAX_MS}). */
export const STREAM_RETRY_MIN_MS = 1000;
/** Longest wait between two tries to open the stream, ms. */
export const STREAM_RETRY_MAX_MS = 30_000;

/**
 * Opens `GET /api/notifications/stream` and calls `onAlert` for each `notification` event. A stream
 * that drops (network, a server restart, a 503: cases where the browser's own retry gives up) is
 * opened again after 1 s, doubling up to 30 s. An event that is not an alert is skipped. Returns the
 * close function.
 */
export function openAlertStream(onAlert: AlertHandler, url = '/api/notifications/stream'): () => void {
  let source: EventSource | null = null;
  let closed = false;
  let retryMs = STREAM_RETRY_MIN_MS;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    const current = new EventSource(url);
    source = current;
    current.addEventListener('open', () => {
      retryMs = STREAM_RETRY_MIN_MS;
    });
    current.addEventListener('notification', (e) => {
      if (closed) return;
      const n = parseAlert((e as MessageEvent<string>).data);
      if (n) onAlert(n);
    });
    current.addEventListener('error', () => {
      if (closed || current !== source) return;
      current.close();
      const wait = retryMs;
      retryMs = Math.min(retryMs * 2, STREAM_RETRY_MAX_MS);
      reopen = setTimeout(open, wait);
    });
  };
  open();
  return () => {
    closed = true;
    clearTimeout(reopen);
    source?.close();
  };
}

/** An alert from an event's JSON text, or null when it is not one. */
export function parseAlert(data: string): OwnerNotification | null {
  try {
    const n = JSON.parse(data) as Partial<OwnerNotification>;
    if (typeof n.title !== 'string' || typeof n.id !== 'string') return null;
    return {
      id: n.id,
      kind: String(n.kind ?? ''),
      chatbotId: typeof n.chatbotId === 'string' ? n.chatbotId : null,
      title: n.title,
      body: typeof n.body === 'string' ? n.body : '',
      url: typeof n.url === 'string' ? n.url : '/main',
      at: typeof n.at === 'string' ? n.at : new Date().toISOString(),
    };
  } catch {
    return null;
  }
}

/**
 * The in-app path of an alert's url (`/usuarios-conversaciones?…`), or null when it leads to another
 * site (then the browser follows it as a plain link).
 */
export function appPath(url: string): string | null {
  try {
    const u = new URL(url, window.location.origin);
    return u.origin === window.location.origin ? `${u.pathname}${u.search}${u.hash}` : null;
  } catch {
    return null;
  }
}

/** The service worker that shows Web Push alerts (dashboard/public/sw.js), for the whole app. */
export const SERVICE_WORKER_URL = '/sw.js';

/** Web Push can work in this browser (a secure context with service workers and a push manager). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** This device's push subscription, or null (no worker yet, or not subscribed). */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** The VAPID public key as the bytes `pushManager.subscribe` takes (from base64url). */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * Turns Web Push on for this device: asks the notification permission (the click that called this
 * is the owner's gesture), registers the service worker, subscribes with the server's VAPID key and
 * sends the subscription (`POST /api/notifications/push/subscriptions`).
 * @throws ApiError `denied` (permission refused), `unsupported`, `noKey` (the server has none),
 *   `subscribe` (the browser's push service refused), or the server's code.
 */
export async function enablePush(): Promise<void> {
  if (!pushSupported()) throw new ApiError('unsupported', '');
  if ((await Notification.requestPermission()) !== 'granted') throw new ApiError('denied', '');
  const { publicKey } = await apiCall<{ publicKey: string | null }>('GET', '/api/notifications/push/key');
  if (!publicKey) throw new ApiError('noKey', '');
  const reg = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  let sub: PushSubscription;
  try {
    sub =
      (await reg.pushManager.getSubscription()) ??
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  } catch {
    throw new ApiError('subscribe', '');
  }
  const json = sub.toJSON();
  await apiCall('POST', '/api/notifications/push/subscriptions', {
    endpoint: sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  });
}

/**
 * Turns Web Push off for this device: tells the server (`DELETE …/push/subscriptions`) and
 * unsubscribes in the browser.
 * @throws ApiError when the server could not be told (the browser's subscription is kept then).
 */
export async function disablePush(): Promise<void> {
  const sub = await currentPushSubscription();
  if (!sub) return;
  await apiCall('DELETE', '/api/notifications/push/subscriptions', { endpoint: sub.endpoint });
  await sub.unsubscribe();
}
