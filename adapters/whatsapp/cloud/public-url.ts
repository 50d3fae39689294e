/**
 * Can Meta reach this server's webhook? (issue 28 §3). Meta calls the Cloud API callback URL from
 * the internet and only over https, so a server whose public address is `http://…`, `localhost`,
 * a loopback, private, link-local or otherwise non-unicast IP (checked with ipaddr.js), or a name
 * that only resolves on a local network (`*.local`, `*.internal`, a name without a dot…) never
 * receives a message. This is a static check of the address: nothing is fetched (a public https
 * name with a broken certificate or a closed firewall still passes).
 */
import ipaddr from 'ipaddr.js';

/** Why Meta cannot reach an address: `private` (local or private host), `notHttps` (plain http). */
export type PublicUrlProblem = 'private' | 'notHttps';

/** Host name suffixes that only resolve on a local network (RFC 6761, 6762, 8375 and common use). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa', '.localdomain', '.test'];

/**
 * True when `host` (a URL's hostname: IPv6 in brackets or not) is not reachable from the internet:
 * an IP literal whose ipaddr.js range is anything but `unicast` (loopback, private, linkLocal,
 * uniqueLocal, carrierGradeNat, unspecified, reserved…), `localhost`, a local-only suffix, or a
 * single-label name.
 */
export function isPrivateHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (ipaddr.isValid(name)) return ipaddr.process(name).range() !== 'unicast';
  if (name === 'localhost' || !name.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * What keeps Meta from calling `url` (an absolute URL), or null when it looks public https. A host
 * problem wins over the scheme (https would not make `127.0.0.1` reachable); an unparsable URL is
 * `private` (nobody can reach it).
 */
export function publicUrlProblem(url: string): PublicUrlProblem | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'private';
  }
  if (isPrivateHost(parsed.hostname)) return 'private';
  return parsed.protocol === 'https:' ? null : 'notHttps';
}
