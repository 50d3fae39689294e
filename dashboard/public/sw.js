/**
 * Charla's service worker (issue 27 §1: Web Push for owners). Served at /sw.js with scope `/` (Vite
 * copies dashboard/public into dist/dashboard, which the server serves at the root); the dashboard
 * registers it only when the owner turns on "push on this device" (lib/notifications.ts).
 *
 * - `push`: shows the payload `{ title, body, url, tag }` (JSON; plain text becomes the body) as a
 *   system notification; the same `tag` replaces an earlier one instead of stacking.
 * - `notificationclick`: brings an open Charla tab to the front and asks it to go to `url` (the
 *   app navigates without reloading; components/NotificationAlerts.tsx), or opens a new tab there.
 *   Only this origin's addresses are followed; anything else opens /main.
 *
 * It has no `fetch` handler: the app's requests never go through it.
 */

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The payload of a push event, whatever was sent. */
function payloadOf(event) {
  if (!event.data) return {};
  try {
    const data = event.data.json();
    return data && typeof data === 'object' ? data : { body: String(data) };
  } catch {
    return { body: event.data.text() };
  }
}

/** `url` as an address of this origin, or /main. */
function sameOrigin(url) {
  try {
    const u = new URL(typeof url === 'string' && url ? url : '/main', self.location.origin);
    return u.origin === self.location.origin ? u.href : new URL('/main', self.location.origin).href;
  } catch {
    return new URL('/main', self.location.origin).href;
  }
}

self.addEventListener('push', (event) => {
  const data = payloadOf(event);
  const title = typeof data.title === 'string' && data.title ? data.title : 'Charla';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    data: { url: sameOrigin(data.url) },
  };
  if (typeof data.tag === 'string' && data.tag) options.tag = data.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin);
      if (!tab) return self.clients.openWindow(url);
      await tab.focus();
      tab.postMessage({ type: 'charla:open', url });
      return undefined;
    })(),
  );
});
