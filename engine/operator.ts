/**
 * The operator's credential (issue 24 §2, issue 26 §6): whoever runs Charla and holds its
 * `CHARLA_SECRET` (or `<data dir>/secret`) may act as the operator over HTTP, e.g. `charla chat`
 * talking to a running server. The token is derived from the instance secret, so nothing is stored
 * and every node with the same secret accepts it; a leaked token is revoked by rotating the secret.
 * It travels in the {@link OPERATOR_HEADER} header, never in a URL, and is never logged.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The request header that carries the operator token. */
export const OPERATOR_HEADER = 'x-charla-operator';

/** The operator token of an instance (HMAC of a fixed purpose under its secret, 43 characters). */
export function operatorToken(secrets: { derive(purpose: string, value: string): string }): string {
  return secrets.derive('operator', 'v1');
}

/** True when the request carries this instance's operator token (compared in constant time). */
export function isOperatorRequest(
  req: FastifyRequest,
  secrets: { derive(purpose: string, value: string): string },
): boolean {
  const sent = req.headers[OPERATOR_HEADER];
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const expected = Buffer.from(operatorToken(secrets));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
