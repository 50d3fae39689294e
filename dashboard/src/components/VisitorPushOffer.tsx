/**
 * The IALanding's offer of browser notifications (issue 28 §2: "browser web push … permission asked
 * only after the visitor engages"): shown once the visitor has written, when the server has a VAPID
 * key (`GET /api/web/:key/push/key`) and the browser can push. Its click asks the permission,
 * registers Charla's service worker (/sw.js, which shows `{ title, body, url, tag }`), subscribes
 * and sends the subscription with the chat's visitor id (`POST /api/web/:key/push/subscriptions`):
 * the owner's replies and the reminders then reach the visitor as notifications too
 * (adapters/web/visitor-push.ts). Only on the IALanding (Charla's origin): the embeddable widget
 * on other sites cannot register Charla's service worker. Texts: `landing.push.*`.
 * Kept free of the app's API and query libraries so the IALanding's island stays small.
 */
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { visitorId } from '../lib/web-chat.ts';

/** Web Push can work in this browser (a secure context with service workers and a push manager). */
function canPush(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Asks, registers, subscribes and tells the server: `on`, `denied` (no permission) or `failed`. */
async function subscribe(chatKey: string, publicKey: string): Promise<'on' | 'denied' | 'failed'> {
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = sub.toJSON();
  const res = await fetch(`/api/web/${encodeURIComponent(chatKey)}/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      visitorId: visitorId(chatKey),
      endpoint: sub.endpoint,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    }),
  });
  return res.ok ? 'on' : 'failed';
}

/** Where the offer is: not shown, offered, asking, on, or refused/failed. */
type State = 'hidden' | 'offer' | 'busy' | 'on' | 'denied' | 'failed';

/** The offer; render it only after the visitor has sent a message. */
export function VisitorPushOffer({ chatKey, t }: { chatKey: string; t: TFunction }) {
  const [state, setState] = useState<State>('hidden');
  const [publicKey, setPublicKey] = useState<string | null>(null);

  useEffect(() => {
    if (!canPush()) return;
    // A visitor who refused notifications before is not asked again.
    if (Notification.permission === 'denied') return;
    let live = true;
    void fetch(`/api/web/${encodeURIComponent(chatKey)}/push/key`)
      .then((r) => (r.ok ? (r.json() as Promise<{ publicKey: string | null }>) : null))
      .then((body) => {
        if (!live || !body?.publicKey) return;
        setPublicKey(body.publicKey);
        setState('offer');
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [chatKey]);

  if (state === 'hidden' || !publicKey) return null;
  const click = async () => {
    setState('busy');
    try {
      setState(await subscribe(chatKey, publicKey));
    } catch {
      setState('failed');
    }
  };
  if (state === 'on' || state === 'denied' || state === 'failed')
    return (
      <p
        className="text-center text-sm text-slate-600"
        role="status"
        data-testid="ialanding-push"
        data-state={state}
      >
        {t(`landing.push.${state}`)}
      </p>
    );
  return (
    <div className="flex justify-center">
      <button
        type="button"
        onClick={() => void click()}
        disabled={state === 'busy'}
        data-testid="ialanding-push"
        data-state={state}
        className="inline-flex min-h-11 items-center gap-2 rounded-full border border-brand-200 bg-white px-4 py-2 text-sm font-semibold text-brand-800 shadow-sm hover:bg-brand-50 disabled:opacity-60"
      >
        <span aria-hidden="true">🔔</span>
        {t('landing.push.offer')}
      </button>
    </div>
  );
}
