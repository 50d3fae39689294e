/**
 * Network checks shared by the routes that make this server post to an address someone gave it
 * (Web Push endpoints of owners, issue 27 §1, and of IALanding visitors, issue 28 §2).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

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
