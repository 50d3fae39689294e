/**
 * Network checks shared by the routes that make this server post to an address someone gave it
 * (Web Push endpoints of owners, issue 27 §1, and of IALanding visitors, issue 28 §2).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * Whether an endpoint's host is, or resolves to, an address that is not public unicast (loopback,
 * private, link-local, unique-local, …: ipaddr.js `range()`). An unresolvable host counts as
 * private (nothing is sent to it).
 * @param endpoint an absolute URL.
 */
export async function privateHost(endpoint: string): Promise<boolean> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return true;
    }
  }
  return addresses.length === 0 || addresses.some((a) => ipaddr.process(a).range() !== 'unicast');
}

/**
 * A browser's PushSubscription as `JSON.stringify` gives it (the parts Web Push needs, RFC 8030/8291):
 * an https `endpoint` of the browser's push service and the keys that encrypt for it (URL-safe
 * base64). Shared by the owners' push (plugins/notifications) and the IALanding visitors'
 * (adapters/web/visitor-push.ts).
 */
export const PushSubscriptionJson = z
  .object({
    endpoint: z
      .string()
      .max(2000)
      .url()
      .refine((u) => u.startsWith('https://'), { message: 'must be an https URL' }),
    keys: z.object({
      p256dh: z
        .string()
        .min(20)
        .max(200)
        .regex(/^[A-Za-z0-9_-]+=*$/),
      auth: z
        .string()
        .min(8)
        .max(100)
        .regex(/^[A-Za-z0-9_-]+=*$/),
    }),
    expirationTime: z.number().nullable().optional(),
  })
  .strip();
