/**
 * The fuzzer's requests (issue 24, the project's own fuzz check): for one route of the route table,
 * one request drawn by a seeded generator from the catalogue below, as bytes for the raw-socket
 * client (test/helpers/fuzz-wire.ts). Request `n` of seed `s` is always drawn the same way (its own
 * generator, seeded from both), whatever the order the requests are sent in.
 *
 * The catalogue: a plausible request (the baseline), wrong types for each body and query field
 * (from the route's JSON schema, or a known payload's shape), missing and extra fields, NUL
 * characters (raw and `\u0000`) in path, query, body and headers, 10,000 levels of nesting, strings
 * of 0.2–10 MB, huge numbers, long arrays, malformed JSON, wrong and garbage content types,
 * malformed and truncated multipart, invalid Host, Content-Length that lies, bad Accept, cookies and
 * `Authorization: Bearer` values, non-Latin-1 bytes in headers, odd methods and request-targets;
 * as an anonymous visitor, as the owner of the seeded bot, or as another owner.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { WireRequest } from './fuzz-wire.ts';

// ————————————————————————————————————————————— generator

/**
 * A small seeded generator (sfc32, seeded through splitmix32): the same seed and stream give the
 * same numbers on every machine.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number, stream = 0) {
    let s = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const mix = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.next();
  }
  /** A number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** One of `items` by weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }
  /** A hex id of `bytes` random bytes. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out;
  }
  uuid(): string {
    const h = this.hex(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

// ————————————————————————————————————————————— what is fuzzed

/** A JSON Schema, as far as the fuzzer reads one (zod's `toJSONSchema`, the OpenAPI document). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
  nullable?: boolean;
}

/** One route of the table as the fuzzer targets it. */
export interface FuzzRoute {
  /** `METHOD /pattern` (or a group's label), the row of the status table. */
  key: string;
  method: string;
  /** The route's pattern (`/api/chatbot-files/:id`); a group's members are in `urls`. */
  url: string;
  /** Several routes of one shape fuzzed as one row (the dashboard's static files). */
  urls?: string[];
  /** An owner route (`config.owner`). */
  owner: boolean;
  /** A public route (`config.public`). */
  public: boolean;
  /** JSON schema of the body, when the route declares one. */
  body?: JsonSchema | undefined;
  /** JSON schema of the query string (an object's), when declared. */
  query?: JsonSchema | undefined;
  /** The route reads multipart/form-data. */
  multipart: boolean;
}

/** Real ids of the seeded data, so requests reach past "not found". */
export interface FuzzTargets {
  /** The seeded owner (has the bot) and another owner, with session tokens. */
  owner: { id: string; token: string };
  other: { id: string; token: string };
  botId: string;
  otherBotId: string;
  fileId: string;
  /** The stored file's path under `/files/`. */
  filePath: string;
  webKey: string;
  slug: string;
  /** A follower (web visitor) id of the bot. */
  followerId: string;
}

/** Secrets the fuzz app was configured with, to sign webhook bodies now and then. */
export interface FuzzSecrets {
  metaAppSecret: string;
  stripeWebhookSecret: string;
}

/** Who sends a request. */
export type Persona = 'anonymous' | 'owner' | 'other-owner';

/** One fuzz request: bytes for the wire and what the report says of it. */
export interface FuzzRequest extends WireRequest {
  n: number;
  route: string;
  /** The catalogue entry that made it (`json-wrong-type`, `multipart-truncated`, …). */
  kind: string;
  persona: Persona;
  /**
   * `hang`: the server may rightly wait for bytes that never come (a body shorter than its
   * Content-Length); `reset`: it may rightly close without an answer (an Upgrade it does not
   * take, a body far over the limit still being written).
   */
  mayNotAnswer?: 'hang' | 'reset';
  /** A short description of the payload for the report. */
  summary: string;
}

// ————————————————————————————————————————————— values

const NUL = '\u0000';

/** Strings that break naive code: empty, NUL, control and bidi characters, injections, lone surrogates. */
const NASTY_STRINGS = [
  '',
  ' ',
  'x',
  NUL,
  `a${NUL}b`,
  '\u0000\u0001\u001f\u007f',
  '\r\nSet-Cookie: x=1',
  '😀',
  '\ud800',
  '\udfff\ud800',
  '\u202etxt.exe',
  'ñandú € 中文 🇪🇸',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE chatbots; --',
  '../../../../etc/passwd',
  '%00',
  '$' + '{jndi:ldap://x}',
  '{{7*7}}',
  'null',
  'undefined',
  'NaN',
  '1e999',
  '-0',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'a'.repeat(1000),
  'ñ'.repeat(5000),
  'https://127.0.0.1:1/',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'file:///etc/passwd',
];

/** A value of some JSON type, to put where another type belongs. */
function wrongValue(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -1e308,
    () => 2 ** 53 + 1,
    () => Number.MIN_VALUE,
    () => rng.pick(NASTY_STRINGS),
    () => true,
    () => false,
    () => null,
    () => [],
    () => ({}),
    () => [1, 'a', null],
    () => ({ a: 1, b: [2] }),
    () => [[[[[]]]]],
    () => '1',
    () => '2030-01-01T00:00:00Z',
  ])();
}

/** A plausible value for a field by its name (real ids where a name says which). */
function byName(name: string, t: FuzzTargets, rng: Rng): unknown {
  const n = name.toLowerCase();
  if (/^(chatbot_?id|bot_?id|id|chatbot)$/.test(n)) return rng.chance(0.85) ? t.botId : t.otherBotId;
  if (/file_?(id|key)|^filekey$/.test(n)) return t.fileId;
  if (/charla_?key|^key$|webkey/.test(n)) return t.webKey;
  if (/slug/.test(n)) return t.slug;
  if (/email/.test(n)) return `fuzz${rng.int(0, 9)}@example.com`;
  if (/password/.test(n)) return 'contraseña-segura';
  if (/visitor|follower|^user_?id$|chat_?id/.test(n)) return t.followerId;
  if (/phone/.test(n)) return '34600111222';
  if (/message_?id|idempotency/.test(n)) return `m-${rng.hex(6)}`;
  if (/^channel$/.test(n)) return rng.pick(['web', 'ialanding', 'telegram', 'whatsapp']);
  if (/date/.test(n)) return '2030-01-15';
  if (/time|hour/.test(n)) return '12:00';
  if (/url|link|website/.test(n)) return 'https://example.com/';
  if (/telegram_?token|^token$/.test(n)) return '123456:abcdefghijklmnopqrstuvwxyz0123456789';
  if (/access_?token/.test(n)) return 'EAAfuzzfuzzfuzzfuzzfuzzfuzz';
  if (/lang|idioma/.test(n)) return rng.pick(['es', 'en', 'fr', 'xx']);
  if (/preset/.test(n)) return 'natural';
  if (/code|coupon/.test(n)) return `C${rng.hex(3)}`;
  if (/message|text|content|description|context|question|body|name/.test(n)) return 'Hola, ¿abrís el sábado?';
  return undefined;
}

/** A value that satisfies `schema` as far as the fuzzer can tell (real ids by field name). */
export function sampleOf(
  schema: JsonSchema | undefined,
  name: string,
  t: FuzzTargets,
  rng: Rng,
  depth = 0,
): unknown {
  if (!schema || depth > 6) return byName(name, t, rng) ?? 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return rng.pick(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) {
    const usable = alternatives.filter((a) => a.type !== 'null');
    return sampleOf(rng.pick(usable.length ? usable : alternatives), name, t, rng, depth + 1);
  }
  if (schema.allOf?.length) return sampleOf(Object.assign({}, ...schema.allOf), name, t, rng, depth + 1);
  const types = [schema.type ?? (schema.properties ? 'object' : 'string')].flat().filter((x) => x !== 'null');
  const type = types[0] ?? 'null';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(key) || rng.chance(0.7))
          out[key] = sampleOf(sub, key, t, rng, depth + 1);
      return out;
    }
    case 'array': {
      const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () =>
        sampleOf(items, name, t, rng, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? Math.max(min, 10);
      return type === 'integer' ? rng.int(Math.ceil(min), Math.floor(Math.min(max, min + 10))) : min;
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default: {
      const named = byName(name, t, rng);
      if (typeof named === 'string') return named;
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
      if (schema.format === 'date-time') return '2030-01-15T12:00:00.000Z';
      if (schema.format === 'date') return '2030-01-15';
      if (schema.format === 'uuid') return rng.uuid();
      const min = schema.minLength ?? 1;
      return 'fuzz'.padEnd(min, 'z').slice(0, schema.maxLength ?? 4);
    }
  }
}

/** Known payloads of routes without a JSON schema (webhooks, better-auth), by URL. */
function knownBody(
  route: FuzzRoute,
  path: string,
  t: FuzzTargets,
  rng: Rng,
): Record<string, unknown> | undefined {
  if (route.url.startsWith('/channels/telegram'))
    return {
      update_id: rng.int(1, 1e9),
      message: {
        message_id: rng.int(1, 1e6),
        date: 1_800_000_000,
        chat: { id: rng.int(1, 1e9), type: 'private' },
        from: { id: rng.int(1, 1e9), is_bot: false, first_name: 'Fuzz' },
        text: 'hola',
      },
    };
  if (route.url.startsWith('/channels/whatsapp'))
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '456',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '34600111222', phone_number_id: '123' },
                contacts: [{ profile: { name: 'Fuzz' }, wa_id: '34600999888' }],
                messages: [
                  {
                    from: '34600999888',
                    id: `wamid.${rng.hex(8)}`,
                    timestamp: '1800000000',
                    type: 'text',
                    text: { body: 'hola' },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
  if (route.url === '/api/stripe/webhook')
    return {
      id: `evt_${rng.hex(6)}`,
      object: 'event',
      type: rng.pick(['checkout.session.completed', 'customer.subscription.deleted', 'invoice.paid', 'x']),
      created: 1_800_000_000,
      data: {
        object: { id: `cs_${rng.hex(6)}`, client_reference_id: t.owner.id, metadata: { userId: t.owner.id } },
      },
    };
  if (route.url.startsWith('/api/auth/')) {
    return {
      email: rng.chance(0.5) ? `fuzz${rng.int(0, 9)}@example.com` : 'nadie@example.com',
      password: rng.pick(['contraseña-segura', 'wrong-password', '']),
      name: 'Fuzz',
      token: rng.hex(16),
      newPassword: 'otra-contraseña-segura',
      currentPassword: 'wrong-password',
      callbackURL: rng.pick(['/', 'https://evil.example/', '//evil.example', 'javascript:alert(1)']),
      ...(path.includes('sign-in/social') ? { provider: rng.pick(['google', 'github', 'x']) } : {}),
    };
  }
  return undefined;
}

// ————————————————————————————————————————————— JSON with raw parts

/** Raw bytes to splice into a JSON text where a value goes (a 10 MB string, `1e999`, 10,000 brackets). */
class Raw {
  constructor(readonly bytes: Buffer) {}
}

/** JSON text of `value`, with every {@link Raw} spliced in as its bytes. */
function jsonBytes(value: unknown): Buffer {
  const raws: Raw[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v);
      return `@@RAW${raws.length - 1}@@`;
    }
    return v;
  });
  if (text === undefined) return Buffer.alloc(0);
  if (raws.length === 0) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let rest = text;
  for (let i = 0; i < raws.length; i++) {
    const marker = `"@@RAW${i}@@"`;
    const at = rest.indexOf(marker);
    if (at < 0) continue;
    parts.push(Buffer.from(rest.slice(0, at), 'utf8'), raws[i]!.bytes);
    rest = rest.slice(at + marker.length);
  }
  parts.push(Buffer.from(rest, 'utf8'));
  return Buffer.concat(parts);
}

/** `levels` of nested arrays or objects around a scalar, as JSON text. */
function deepJson(levels: number, rng: Rng): Buffer {
  return rng.chance(0.5)
    ? Buffer.from(`${'['.repeat(levels)}1${']'.repeat(levels)}`)
    : Buffer.from(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
}

/** A JSON string literal of about `bytes` bytes. */
function hugeString(bytes: number, rng: Rng): Raw {
  const fill = rng.pick(['a', 'ñ', '\\u0000', ' ']);
  const unit = Buffer.byteLength(fill);
  return new Raw(
    Buffer.concat([
      Buffer.from('"'),
      Buffer.alloc(Math.max(1, Math.floor(bytes / unit)) * unit, fill),
      Buffer.from('"'),
    ]),
  );
}

/** Sizes of huge values, bytes: mostly around the 1 MB body limit, now and then 10 MB. */
function hugeSize(rng: Rng): number {
  return rng.weighted([
    [200_000, 3],
    [900_000, 3],
    [1_100_000, 3],
    [3_000_000, 1],
    [10_000_000, 1],
  ]);
}

/** Every path to a value inside `value` (objects and arrays), the empty path first. */
function leafPaths(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  out.push(prefix);
  if (prefix.length > 6) return out;
  if (Array.isArray(value)) for (const [i, v] of value.entries()) leafPaths(v, [...prefix, i], out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leafPaths(v, [...prefix, k], out);
  return out;
}

/** `value` with the value at `path` replaced (a deep copy). */
function setAt(value: unknown, path: Array<string | number>, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path;
  copy[head!] = setAt(copy[head!], rest, next);
  return copy;
}

/** A path inside `value` other than the root when there is one. */
function somePath(value: unknown, rng: Rng): Array<string | number> {
  const paths = leafPaths(value).filter((p) => p.length > 0);
  return paths.length ? rng.pick(paths) : [];
}

// ————————————————————————————————————————————— multipart

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const OGG = Buffer.concat([Buffer.from('OggS\0\x02'), Buffer.alloc(200, 1)]);

/** A multipart part. */
interface Part {
  headers: string[];
  data: Buffer;
}

function fieldPart(name: string, value: string | Buffer): Part {
  return {
    headers: [`Content-Disposition: form-data; name="${name}"`],
    data: typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
  };
}

function filePart(name: string, filename: string, data: Buffer, type: string): Part {
  return {
    headers: [
      `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
      `Content-Type: ${type}`,
    ],
    data,
  };
}

function multipartBytes(boundary: string, parts: Part[], close = true): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(
      Buffer.from(`--${boundary}\r\n${p.headers.join('\r\n')}\r\n\r\n`, 'utf8'),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

/** The plausible fields of this project's upload forms, with real ids. */
function formFields(t: FuzzTargets, rng: Rng): Part[] {
  const fields: Array<[string, string]> = [
    ['chatbotId', rng.chance(0.85) ? t.botId : t.otherBotId],
    ['visitorId', t.followerId],
    ['userId', t.followerId],
    ['channel', rng.pick(['web', 'ialanding', 'telegram'])],
    ['messageId', `m-${rng.hex(6)}`],
    ['keyword', 'menu'],
    ['context', 'La carta'],
    ['text', 'Hola a todos'],
    ['preset', rng.pick(['natural', 'robot', 'x'])],
  ];
  return fields.filter(() => rng.chance(0.8)).map(([k, v]) => fieldPart(k, v));
}

// ————————————————————————————————————————————— the catalogue

/** What a case builder gets. */
interface CaseInput {
  rng: Rng;
  route: FuzzRoute;
  t: FuzzTargets;
  secrets: FuzzSecrets;
  port: number;
  persona: Persona;
  /** The method sent (the route's, HEAD for a GET now and then). */
  method: string;
  /** The URL path with real (or now and then garbage) parameters. */
  path: string;
}

/** What a case builder makes: the parts of the request it changes. */
interface CaseOutput {
  kind: string;
  method?: string;
  target?: string | Buffer;
  query?: string;
  /** Header lines replacing the defaults of the same name (`null` drops one). */
  headers?: Array<[string, string | Buffer | null]>;
  /** Header lines added after the defaults (a second Host, a second Content-Length). */
  extraHeaders?: Array<[string, string | Buffer]>;
  body?: Buffer;
  contentType?: string | null;
  /** Content-Length to declare instead of the body's own (`null`: none). */
  contentLength?: string | null;
  mayNotAnswer?: 'hang' | 'reset';
  summary: string;
  version?: string;
}

type CaseBuilder = (c: CaseInput) => CaseOutput;

/** The body sample of a route (its schema's, a known payload, or a generic one). */
function sampleBody(c: CaseInput): unknown {
  if (c.route.body) return sampleOf(c.route.body, '', c.t, c.rng);
  return (
    knownBody(c.route, c.path, c.t, c.rng) ?? {
      chatbotId: c.t.botId,
      message: 'Hola',
      text: 'Hola',
      visitorId: c.t.followerId,
    }
  );
}

/** A plausible query string for the route (its schema's fields, with real ids). */
function sampleQuery(c: CaseInput): string {
  const props = c.route.query?.properties;
  if (!props) return '';
  const q = new URLSearchParams();
  for (const [k, s] of Object.entries(props)) {
    if (!c.route.query?.required?.includes(k) && !c.rng.chance(0.7)) continue;
    const v = sampleOf(s, k, c.t, c.rng);
    q.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return q.toString();
}

const json = (value: unknown, kind: string, summary: string): CaseOutput => ({
  kind,
  body: jsonBytes(value),
  contentType: 'application/json',
  summary,
});

const BODY_CASES: Record<string, CaseBuilder> = {
  valid: (c) => {
    if (!hasBody(c.method)) return { kind: 'valid', summary: 'plausible request' };
    if (c.route.multipart) return MULTIPART_CASES['multipart-valid']!(c);
    const body = sampleBody(c);
    return json(body, 'valid', `valid ${preview(body)}`);
  },
  'json-wrong-type': (c) => {
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    const value = wrongValue(c.rng);
    return json(
      setAt(body, path, value),
      'json-wrong-type',
      `${path.join('.') || '(body)'} = ${preview(value)}`,
    );
  },
  'json-missing-fields': (c) => {
    const variants: Array<[unknown, string]> = [
      [{}, '{}'],
      [[], '[]'],
      [null, 'null'],
      ['texto', '"texto"'],
      [0, '0'],
      [true, 'true'],
    ];
    const body = sampleBody(c);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const keys = Object.keys(body);
      if (keys.length) {
        const drop = c.rng.pick(keys);
        const { [drop]: _dropped, ...rest } = body as Record<string, unknown>;
        variants.push([rest, `without ${drop}`], [rest, `without ${drop}`]);
      }
    }
    const [value, label] = c.rng.pick(variants);
    return json(value, 'json-missing-fields', label);
  },
  'json-extra-fields': (c) => {
    const body = sampleBody(c);
    const base = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const extra = c.rng.pick<[string, string]>([
      ['{"__proto__":{"admin":true}}', '__proto__'],
      ['{"constructor":{"prototype":{"admin":true}}}', 'constructor.prototype'],
      [
        JSON.stringify({ unexpected: 'x', userId: c.t.other.id, user_id: c.t.other.id, plan: 'premium' }),
        'unknown fields',
      ],
    ]);
    const merged = Buffer.from(
      `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? ',' : ''}${extra[0].slice(1)}`,
    );
    return { kind: 'json-extra-fields', body: merged, contentType: 'application/json', summary: extra[1] };
  },
  'json-nul': (c) => {
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    const value = c.rng.pick([NUL, `a${NUL}b`, `${NUL}`.repeat(100), `${c.t.botId}${NUL}`]);
    if (c.rng.chance(0.2)) {
      const key = c.rng.pick([`chatbot${NUL}Id`, NUL, `__proto__${NUL}`]);
      const merged = { ...(body && typeof body === 'object' ? body : {}), [key]: 'x' };
      return json(merged, 'json-nul', 'NUL in a key');
    }
    return json(setAt(body, path, value), 'json-nul', `${path.join('.') || '(body)'} has \\u0000`);
  },
  'json-raw-nul': (c) => {
    const text = jsonBytes(sampleBody(c));
    const at = c.rng.int(0, text.length);
    const body = Buffer.concat([text.subarray(0, at), Buffer.from([0]), text.subarray(at)]);
    return { kind: 'json-raw-nul', body, contentType: 'application/json', summary: `raw NUL byte at ${at}` };
  },
  'json-huge-string': (c) => {
    const size = hugeSize(c.rng);
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    return {
      ...json(setAt(body, path, hugeString(size, c.rng)), 'json-huge-string', ''),
      summary: `${path.join('.') || '(body)'} is a ${fmtBytes(size)} string`,
      ...(size > 2_000_000 ? { mayNotAnswer: 'reset' as const } : {}),
    };
  },
  'json-huge-number': (c) => {
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    const n = c.rng.pick([
      '1e999',
      '-1e999',
      '123456789012345678901234567890',
      '1e-400',
      '-0',
      '9007199254740993',
      `0.${'1'.repeat(5000)}`,
      '1'.repeat(100_000),
    ]);
    return json(
      setAt(body, path, new Raw(Buffer.from(n))),
      'json-huge-number',
      `${path.join('.') || '(body)'} = ${n.slice(0, 30)}`,
    );
  },
  'json-long-array': (c) => {
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    const length = c.rng.pick([10_000, 100_000, 300_000]);
    const item = c.rng.pick(['1', '"x"', '{}', 'null']);
    const raw = new Raw(Buffer.from(`[${Array.from({ length }, () => item).join(',')}]`));
    return json(
      setAt(body, path, raw),
      'json-long-array',
      `${path.join('.') || '(body)'} is an array of ${length}`,
    );
  },
  'json-deep': (c) => {
    const levels = c.rng.weighted([
      [10_000, 8],
      [1_000, 1],
      [100_000, 1],
    ]);
    if (c.rng.chance(0.5))
      return {
        kind: 'json-deep',
        body: deepJson(levels, c.rng),
        contentType: 'application/json',
        summary: `body nested ${levels} levels`,
      };
    const body = sampleBody(c);
    const path = somePath(body, c.rng);
    return {
      ...json(setAt(body, path, new Raw(deepJson(levels, c.rng))), 'json-deep', ''),
      summary: `${path.join('.') || '(body)'} nested ${levels} levels`,
    };
  },
  'json-malformed': (c) => {
    const good = jsonBytes(sampleBody(c)).toString('utf8');
    const [text, label] = c.rng.pick<[string | Buffer, string]>([
      [good.slice(0, Math.max(1, Math.floor(good.length / 2))), 'truncated'],
      [`${good},`, 'trailing comma'],
      [`${good}}`, 'extra brace'],
      [good.replace(/"/g, "'"), 'single quotes'],
      ['{"a":NaN}', 'NaN'],
      ['{"a":1,/*x*/"b":2}', 'comment'],
      [`\ufeff${good}`, 'BOM'],
      [
        Buffer.concat([
          Buffer.from('{"message":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
        'invalid UTF-8',
      ],
      ['{"a":1,"a":2}', 'duplicate key'],
      ['', 'empty body'],
      ['   ', 'whitespace'],
      ['}', 'lone brace'],
      ['{"a":"\\x41"}', 'bad escape'],
      ['{"a":"\\ud800"}', 'lone surrogate escape'],
      ['{"a":undefined}', 'undefined'],
      [good.repeat(2), 'two documents'],
    ]);
    return {
      kind: 'json-malformed',
      body: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
      contentType: 'application/json',
      summary: label,
    };
  },
  'content-type': (c) => {
    const body = jsonBytes(sampleBody(c));
    const type = c.rng.pick<string | null>([
      null,
      '',
      ';',
      'application/json; charset=utf-99',
      'application/json; charset=utf-16le',
      'application/json; charset=latin1',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/mixed; boundary=x',
      '*/*',
      'application/json, text/plain',
      `application/json; ${'a'.repeat(4000)}`,
      'application/vnd.api+json',
      'application/octet-stream',
      'application/json\u0000',
      'ÿ/ÿ',
      'application/json;;;;charset=',
    ]);
    return {
      kind: 'content-type',
      body,
      contentType: type,
      summary: `content-type ${type === null ? '(none)' : JSON.stringify(type.slice(0, 60))}`,
    };
  },
};

const MULTIPART_CASES: Record<string, CaseBuilder> = {
  'multipart-valid': (c) => {
    const boundary = `fz${c.rng.hex(8)}`;
    const file = c.rng.chance(0.5)
      ? filePart('file', 'carta.pdf', PDF, 'application/pdf')
      : filePart(c.rng.pick(['audio', 'file']), 'nota.ogg', OGG, 'audio/ogg');
    return {
      kind: 'multipart-valid',
      body: multipartBytes(boundary, [...formFields(c.t, c.rng), file]),
      contentType: `multipart/form-data; boundary=${boundary}`,
      summary: 'fields and one file',
    };
  },
  'multipart-malformed': (c) => {
    const boundary = `fz${c.rng.hex(8)}`;
    const fields = formFields(c.t, c.rng);
    const file = filePart(c.rng.pick(['file', 'audio']), 'carta.pdf', PDF, 'application/pdf');
    const whole = multipartBytes(boundary, [...fields, file]);
    const ct = `multipart/form-data; boundary=${boundary}`;
    const variant = c.rng.int(0, 16);
    const out = (body: Buffer, summary: string, contentType: string | null = ct): CaseOutput => ({
      kind: 'multipart-malformed',
      body,
      contentType,
      summary,
    });
    switch (variant) {
      case 0:
        return out(whole, 'no boundary parameter', 'multipart/form-data');
      case 1:
        return out(whole, 'another boundary', 'multipart/form-data; boundary=otra');
      case 2: {
        const cut = c.rng.int(1, whole.length - 1);
        return out(whole.subarray(0, cut), `truncated at byte ${cut} of ${whole.length}`);
      }
      case 3:
        return out(multipartBytes(boundary, [...fields, file], false), 'no closing boundary');
      case 4:
        return out(
          multipartBytes(boundary, [
            { headers: ['Content-Disposition: form-data'], data: Buffer.from('x') },
            file,
          ]),
          'a part without name',
        );
      case 5:
        return out(
          multipartBytes(boundary, [{ headers: [], data: Buffer.from('x') }, file]),
          'a part without headers',
        );
      case 6:
        return out(
          multipartBytes(boundary, [...fields, file, filePart('file', 'otra.pdf', PDF, 'application/pdf')]),
          'two files',
        );
      case 7:
        return out(
          multipartBytes(boundary, [
            ...fields,
            filePart('file', 'carta.pdf', PDF, c.rng.pick([';;;', 'text/html', 'application/json', 'ÿ', ''])),
          ]),
          'a file part with a wrong content-type',
        );
      case 8:
        return out(
          multipartBytes(boundary, [
            {
              headers: ['Content-Disposition: form-data; name="chatbotId"', 'Content-Type: application/json'],
              data: Buffer.from('{no json'),
            },
            file,
          ]),
          'a field declared application/json that is not',
        );
      case 9:
        return out(
          multipartBytes(boundary, [
            {
              headers: ['Content-Disposition form-data name="x"', `X: ${'a'.repeat(20_000)}`],
              data: Buffer.from('x'),
            },
          ]),
          'a malformed, huge part header',
        );
      case 10:
        return out(
          multipartBytes(
            boundary,
            Array.from({ length: 300 }, (_, i) => fieldPart(`f${i}`, 'x')),
          ),
          '300 fields',
        );
      case 11:
        return out(
          multipartBytes(boundary, [
            fieldPart(`chatbot${NUL}Id`, `${c.t.botId}${NUL}`),
            filePart('file', `a${NUL}.pdf`, PDF, 'application/pdf'),
          ]),
          'NUL in names, value and file name',
        );
      case 12:
        return out(
          multipartBytes(boundary, [
            ...fields,
            filePart(
              'file',
              c.rng.pick([
                '../../../../etc/passwd',
                '',
                'a'.repeat(5000),
                'ñandú 中文.pdf',
                '.htaccess',
                'con.pdf',
                '%00.pdf',
              ]),
              PDF,
              'application/pdf',
            ),
          ]),
          'an odd file name',
        );
      case 13:
        return out(Buffer.alloc(0), 'empty body');
      case 14:
        return out(multipartBytes(boundary, [fieldPart('__proto__', 'x'), file]), 'a field named __proto__');
      case 15:
        return out(
          multipartBytes(boundary, [...fields, fieldPart('text', Buffer.alloc(2_000_000, 'a'))]),
          'a 2 MB text field',
        );
      default:
        return out(
          multipartBytes(`${'b'.repeat(100)}`, [...fields, file]),
          'a 100-character boundary',
          `multipart/form-data; boundary=${'b'.repeat(100)}`,
        );
    }
  },
  'multipart-big-file': (c) => {
    const boundary = `fz${c.rng.hex(8)}`;
    const size = c.rng.pick([10 * 1024 * 1024 + 1, 12_000_000]);
    return {
      kind: 'multipart-big-file',
      body: multipartBytes(boundary, [
        ...formFields(c.t, c.rng),
        filePart('file', 'grande.pdf', Buffer.concat([PDF, Buffer.alloc(size)]), 'application/pdf'),
      ]),
      contentType: `multipart/form-data; boundary=${boundary}`,
      summary: `a ${fmtBytes(size)} file`,
      mayNotAnswer: 'reset',
    };
  },
};

/** Garbage for one path parameter, as it goes into the request-target (already encoded). */
const GARBAGE_SEGMENTS = [
  'x',
  '0',
  '-1',
  'null',
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%C0%AF',
  '%E2%82%AC',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '..',
  '%2e%2e',
  '..%2f..%2fpackage.json',
  'a'.repeat(300),
  'a'.repeat(5000),
  '%27%20OR%201%3D1--',
  '%3Cscript%3E',
  '1e999',
  '%20',
  '+',
  'x;y',
  'x%3Fy%3Dz',
  'CON',
  '%0d%0aSet-Cookie:%20x=1',
];

/** Values for `*` by route prefix. */
function wildcard(route: FuzzRoute, t: FuzzTargets, rng: Rng): string {
  if (route.url.startsWith('/files/')) return t.filePath;
  if (route.url.startsWith('/widget/'))
    return rng.pick([
      'widget.js',
      'loader.js',
      'chat.js',
      '',
      'x',
      'sub/',
      '..%2f..%2fpackage.json',
      'widget.js.map',
      '.',
    ]);
  if (route.url.startsWith('/api/auth/'))
    return rng.pick([
      'get-session',
      'sign-in/email',
      'sign-up/email',
      'sign-out',
      'request-password-reset',
      'forget-password',
      'reset-password',
      'verify-email',
      'send-verification-email',
      'change-password',
      'update-user',
      'list-sessions',
      'revoke-session',
      'revoke-other-sessions',
      'sign-in/social',
      'sign-in/oauth2',
      'oauth2/callback/google',
      'ok',
      'error',
      'x',
    ]);
  return 'x';
}

/** The route's path with its parameters filled: real ids mostly, garbage now and then. */
export function fillPath(route: FuzzRoute, t: FuzzTargets, rng: Rng, garbage: number): string {
  const url = route.urls ? rng.pick(route.urls) : route.url;
  return url.replace(/:(\w+)|\*$/g, (_m, name: string | undefined) => {
    if (rng.chance(garbage)) return rng.pick(GARBAGE_SEGMENTS);
    if (name === undefined) return wildcard(route, t, rng);
    const n = name.toLowerCase();
    if (n === 'key') return t.webKey;
    if (n === 'slug') return t.slug;
    if (n === 'id' && /files/.test(url)) return t.fileId;
    if (/reservation/.test(n)) return rng.uuid();
    if (rng.chance(0.1)) return t.otherBotId;
    return t.botId;
  });
}

const PATH_CASES: Record<string, CaseBuilder> = {
  'path-garbage': (c) => {
    const path = fillPath(c.route, c.t, c.rng, 1);
    return { kind: 'path-garbage', target: path, summary: `path ${path.slice(0, 80)}` };
  },
  'path-raw': (c) => {
    const [bytes, label] = c.rng.pick<[Buffer, string]>([
      [Buffer.concat([Buffer.from(c.path), Buffer.from([0])]), 'raw NUL at the end'],
      [
        Buffer.concat([Buffer.from(c.path.slice(0, -1)), Buffer.from([0]), Buffer.from(c.path.slice(-1))]),
        'raw NUL inside',
      ],
      [Buffer.from(`${c.path}ñ`, 'utf8'), 'raw UTF-8 byte'],
      [Buffer.from(`${c.path}\t`, 'latin1'), 'raw tab'],
      [Buffer.from(`${c.path}/`, 'latin1'), 'trailing slash'],
      [Buffer.from(`/${c.path}`, 'latin1'), 'double slash'],
      [Buffer.from(c.path.toUpperCase(), 'latin1'), 'upper case'],
      [Buffer.from(`http://evil.example${c.path}`, 'latin1'), 'absolute-form target'],
      [Buffer.from('*', 'latin1'), 'asterisk-form target'],
      [Buffer.from(`${c.path}/../../../package.json`, 'latin1'), 'dot segments'],
      [Buffer.from(`${c.path}#frag`, 'latin1'), 'fragment'],
      [Buffer.from(`${c.path}${'/a'.repeat(10_000)}`, 'latin1'), '20 KB path'],
      [Buffer.from(`${c.path}%`, 'latin1'), 'lone percent'],
      [Buffer.from(c.path.replace(/\//g, '\\'), 'latin1'), 'backslashes'],
    ]);
    return { kind: 'path-raw', target: bytes, summary: label };
  },
};

const QUERY_CASES: Record<string, CaseBuilder> = {
  'query-garbage': (c) => {
    const props = Object.keys(c.route.query?.properties ?? {});
    const name =
      props.length && c.rng.chance(0.8) ? c.rng.pick(props) : c.rng.pick(['chatbotId', 'q', 'page', 'limit']);
    const valid = sampleQuery(c);
    const v = c.rng.pick([
      `${name}[]=1&${name}[]=2`,
      `${name}[a]=b`,
      `${name}=1&${name}=2`,
      `${name}=`,
      name,
      `${name}=${'a'.repeat(c.rng.pick([1000, 10_000, 20_000]))}`,
      `${name}=%00`,
      `${name}=a%00b`,
      `${name}=%ZZ`,
      `${name}=%E2%82%AC`,
      `${name}=%ED%A0%80`,
      `${name}=-1`,
      `${name}=1e999`,
      `${name}=99999999999999999999`,
      `${name}=true`,
      `${name}=null`,
      `${name}=${pct(c.rng.pick(NASTY_STRINGS))}`,
      '__proto__=x',
      '__proto__[admin]=1',
      'constructor[prototype][admin]=1',
      '&&&',
      '=&=',
      'a=1;b=2',
      `${name}=${c.t.otherBotId}`,
    ]);
    const query = valid && c.rng.chance(0.6) ? `${valid}&${v}` : v;
    return { kind: 'query-garbage', query, summary: `?${query.slice(0, 80)}` };
  },
};

/** Percent-encodes a text's UTF-8 bytes (lone surrogates as U+FFFD, where encodeURIComponent throws). */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Raw bytes of a non-Latin-1 text as a header value carries it (UTF-8 bytes Node reads as Latin-1). */
const utf8 = (s: string) => Buffer.from(s, 'utf8');

const HEADER_CASES: Record<string, CaseBuilder> = {
  'header-host': (c) => {
    const [value, label, extra] = c.rng.pick<[string | Buffer | null, string, Array<[string, string]>?]>([
      [null, 'no Host'],
      ['', 'empty Host'],
      ['a b', 'Host with a space'],
      ['[::1', 'Host with a broken IPv6 literal'],
      ['x'.repeat(300), '300-character Host'],
      ['127.0.0.1:99999', 'Host with a bad port'],
      ['evil.example', 'another Host'],
      [Buffer.from('127.0.0.1\u0000.evil', 'latin1'), 'Host with NUL'],
      [utf8('ñandú.es'), 'Host with UTF-8 bytes'],
      ['-', 'Host "-"'],
      ['127.0.0.1:80, evil.example', 'Host list'],
      ['http://127.0.0.1/', 'Host as a URL'],
      [`127.0.0.1:${c.port}`, 'two Hosts', [['Host', 'evil.example']]],
    ]);
    return {
      kind: 'header-host',
      headers: [['Host', value]],
      extraHeaders: extra ?? [],
      summary: label,
      ...sampleRequestBody(c),
    };
  },
  'header-length': (c) => {
    const body = c.route.multipart ? MULTIPART_CASES['multipart-valid']!(c) : json(sampleBody(c), '', '');
    const length = body.body?.length ?? 0;
    const variant = c.rng.int(0, 8);
    const base = {
      kind: 'header-length',
      body: body.body ?? Buffer.alloc(0),
      contentType: body.contentType ?? 'application/json',
    };
    switch (variant) {
      case 0:
        return {
          ...base,
          contentLength: String(Math.max(0, length - c.rng.int(1, Math.max(1, length)))),
          summary: 'Content-Length shorter than the body',
        };
      case 1:
        return {
          ...base,
          contentLength: String(length + c.rng.int(1, 1000)),
          summary: 'Content-Length longer than the body',
          mayNotAnswer: 'hang',
        };
      case 2:
        return {
          ...base,
          contentLength: c.rng.pick(['-1', 'abc', '1e3', ' ', '0x10', '99999999999999999999']),
          summary: 'invalid Content-Length',
        };
      case 3:
        return {
          ...base,
          extraHeaders: [['Content-Length', String(length + 1)]],
          summary: 'two different Content-Length',
        };
      case 4:
        return {
          ...base,
          extraHeaders: [['Transfer-Encoding', 'chunked']],
          summary: 'Content-Length and Transfer-Encoding',
        };
      case 5:
        return {
          ...base,
          contentLength: null,
          headers: [['Transfer-Encoding', c.rng.pick(['gzip', 'chunked, gzip', 'identity', 'ÿ'])]],
          summary: 'odd Transfer-Encoding',
        };
      case 6:
        return {
          ...base,
          contentLength: null,
          headers: [['Transfer-Encoding', 'chunked']],
          body: Buffer.concat([
            Buffer.from(c.rng.pick(['zz\r\n', '5;ext=x\r\nab\r\n', `${length.toString(16)}\r\n`])),
            base.body,
            Buffer.from('\r\n'),
          ]),
          summary: 'malformed chunked body',
          mayNotAnswer: 'hang',
        };
      case 7:
        return {
          ...base,
          headers: [['Content-Encoding', c.rng.pick(['gzip', 'br', 'deflate', 'x'])]],
          summary: 'Content-Encoding that is not',
        };
      default:
        return { ...base, contentLength: null, summary: 'a body with no length' };
    }
  },
  'header-accept': (c) => {
    const [name, value] = c.rng.pick<[string, string | Buffer]>([
      ['Accept', ''],
      ['Accept', '*/*;q=abc'],
      ['Accept', 'text/html'],
      ['Accept', 'text/html, application/xhtml+xml'],
      ['Accept', 'application/json;q=0'],
      ['Accept', 'garbage'],
      ['Accept', 'x'.repeat(8000)],
      ['Accept', 'text/event-stream'],
      ['Accept-Encoding', 'br;q=x'],
      ['Accept-Encoding', 'gzip;q=, br'],
      ['Accept-Encoding', '*;q=0'],
      ['Accept-Encoding', 'identity;q=0'],
      ['Accept-Encoding', 'deflate, gzip, br, zstd'],
      ['Accept-Language', 'ñ'],
      ['Accept-Language', utf8('español;q=1')],
      ['Accept-Language', 'en-US;q=abc'],
      ['Accept-Language', '*'],
      ['Accept-Language', 'x'.repeat(5000)],
      ['Accept-Language', 'zz-ZZ,,,;q=2'],
      ['Accept-Charset', 'utf-99'],
    ]);
    return {
      kind: 'header-accept',
      headers: [[name, value]],
      summary: `${name}: ${String(value).slice(0, 40)}`,
      ...sampleRequestBody(c),
    };
  },
  'header-cookie': (c) => {
    const value = c.rng.pick<string | Buffer>([
      'better-auth.session_token=garbage',
      'better-auth.session_token=%',
      `better-auth.session_token=${c.t.owner.token}.firma-falsa`,
      `better-auth.session_token=${c.t.owner.token}`,
      '=',
      ';;;',
      'a=b; a=c',
      `a=${'x'.repeat(10_000)}`,
      utf8('better-auth.session_token=ñandú'),
      '__Secure-better-auth.session_token=x',
      'better-auth.session_token="quoted"',
      'better-auth.session_data=eyJ4IjoxfQ',
      `better-auth.session_token=${'%E2%82%AC'.repeat(100)}`,
    ]);
    return {
      kind: 'header-cookie',
      headers: [['Cookie', value]],
      summary: `Cookie: ${String(value).slice(0, 50)}`,
      ...sampleRequestBody(c),
    };
  },
  'header-auth': (c) => {
    const value = c.rng.pick<string | Buffer>([
      'Bearer',
      'Bearer ',
      'Bearer x',
      `Bearer ${'a'.repeat(10_000)}`,
      `Bearer ${c.t.owner.token}x`,
      `Bearer  ${c.t.owner.token}`,
      `bearer ${c.t.owner.token}`,
      `Bearer ${c.t.owner.token} ${c.t.other.token}`,
      'Basic Zm9vOmJhcg==',
      `Bearer ${c.t.other.token.slice(0, 10)}`,
      'Bearer %00',
      utf8('Bearer ñandú'),
      utf8(`Bearer ${c.t.owner.token}€`),
      'Bearer null',
      'Bearer undefined',
      `Bearer ${c.rng.uuid()}`,
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      'Bearer ../../../etc/passwd',
      'Bearer %27%20OR%201%3D1--',
    ]);
    return {
      kind: 'header-auth',
      headers: [['Authorization', value]],
      summary: `Authorization: ${String(value).slice(0, 50)}`,
      ...sampleRequestBody(c),
    };
  },
  'header-non-latin1': (c) => {
    const name = c.rng.pick([
      'User-Agent',
      'Referer',
      'Origin',
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Forwarded-Proto',
      'Accept-Language',
      'Authorization',
      'Cookie',
      'If-None-Match',
      'X-Telegram-Bot-Api-Secret-Token',
      'X-Hub-Signature-256',
      'Stripe-Signature',
      'X-Request-Id',
      'Sec-Fetch-Site',
      'Range',
    ]);
    const text = c.rng.pick(['ñandú', '中文', '😀', 'Ω≈ç√', '\u202e', 'é'.repeat(3000)]);
    return {
      kind: 'header-non-latin1',
      headers: [[name, utf8(text)]],
      summary: `${name} with UTF-8 bytes`,
      ...sampleRequestBody(c),
    };
  },
  'header-nul': (c) => {
    const name = c.rng.pick([
      'User-Agent',
      'Authorization',
      'Cookie',
      'Origin',
      'Accept',
      'X-Forwarded-For',
      'Content-Type',
    ]);
    const value = Buffer.from(
      c.rng.pick([`a\u0000b`, '\u0000', `Bearer ${c.t.owner.token}\u0000`]),
      'latin1',
    );
    return {
      kind: 'header-nul',
      headers: [[name, value]],
      summary: `NUL in ${name}`,
      ...sampleRequestBody(c),
    };
  },
  'header-misc': (c) => {
    const [name, value, label, may] = c.rng.pick<[string, string | Buffer, string, ('reset' | 'hang')?]>([
      ['Origin', 'null', 'Origin null'],
      ['Origin', 'garbage', 'Origin garbage'],
      ['Origin', 'http://evil.example', 'foreign Origin'],
      ['Origin', `http://127.0.0.1:${c.port}`, 'own Origin'],
      ['Sec-Fetch-Site', 'garbage', 'odd Sec-Fetch-Site'],
      ['Sec-Fetch-Site', 'cross-site', 'cross-site'],
      ['X-Forwarded-For', 'garbage, ::ffff:1.2.3.4, 999.999.1.1', 'garbage X-Forwarded-For'],
      [
        'X-Forwarded-For',
        Array.from({ length: 500 }, (_, i) => `10.0.${i % 250}.1`).join(', '),
        '500 X-Forwarded-For hops',
      ],
      ['X-Forwarded-Proto', 'gopher', 'odd X-Forwarded-Proto'],
      ['X-Forwarded-Host', 'evil.example', 'X-Forwarded-Host'],
      [
        'Range',
        c.rng.pick([
          'bytes=garbage',
          'bytes=99999999999-',
          `bytes=${Array.from({ length: 200 }, (_, i) => `${i}-${i}`).join(',')}`,
          'bytes=-0',
          'bytes=5-1',
        ]),
        'odd Range',
      ],
      ['If-Modified-Since', 'garbage', 'garbage If-Modified-Since'],
      ['If-None-Match', '"x", W/"y", *', 'If-None-Match list'],
      ['Expect', '100-continue', 'Expect 100-continue'],
      ['Expect', 'garbage', 'odd Expect'],
      ['Upgrade', 'websocket', 'Upgrade to websocket', 'reset'],
      ['X-Big', 'x'.repeat(20_000), '20 KB header'],
      ['Connection', 'keep-alive, Upgrade, x', 'odd Connection'],
      ['X-HTTP-Method-Override', 'DELETE', 'method override'],
      ['Stripe-Signature', 't=1,v1=abc', 'bad Stripe signature'],
      ['X-Hub-Signature-256', 'sha256=00', 'bad Meta signature'],
      ['X-Telegram-Bot-Api-Secret-Token', 'x'.repeat(300), 'bad Telegram secret'],
    ]);
    const extra: Array<[string, string]> = name === 'Upgrade' ? [['Connection', 'Upgrade']] : [];
    return {
      kind: 'header-misc',
      headers: [[name, value]],
      extraHeaders: extra,
      summary: label,
      ...(may ? { mayNotAnswer: may } : {}),
      ...sampleRequestBody(c),
    };
  },
  'header-many': (c) => ({
    kind: 'header-many',
    extraHeaders: Array.from(
      { length: c.rng.pick([100, 2000]) },
      (_, i) => [`X-H${i}`, 'x'] as [string, string],
    ),
    summary: 'many headers',
    ...sampleRequestBody(c),
  }),
  method: (c) => {
    const [method, label, may] = c.rng.pick<[string, string, 'reset'?]>([
      ['OPTIONS', 'OPTIONS'],
      ['TRACE', 'TRACE'],
      ['PROPFIND', 'PROPFIND'],
      ['get', 'lower-case method'],
      ['GE\u0000T', 'NUL in the method'],
      ['PATCH', 'PATCH'],
      ['DELETE', 'DELETE'],
      ['PUT', 'PUT'],
      ['CONNECT', 'CONNECT', 'reset'],
      ['SEARCH', 'SEARCH'],
    ]);
    return {
      kind: 'method',
      method,
      summary: label,
      ...(may ? { mayNotAnswer: may } : {}),
      ...sampleRequestBody(c),
    };
  },
  version: (c) => {
    const version = c.rng.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1x', 'HTTPS/1.1']);
    return { kind: 'version', version, summary: version, ...sampleRequestBody(c) };
  },
};

/** The route's plausible body (for header cases on routes that take one), or none. */
function sampleRequestBody(c: CaseInput): Pick<CaseOutput, 'body' | 'contentType'> {
  if (!hasBody(c.method)) return {};
  if (c.route.multipart) {
    const m = MULTIPART_CASES['multipart-valid']!(c);
    return { body: m.body!, contentType: m.contentType ?? null };
  }
  return { body: jsonBytes(sampleBody(c)), contentType: 'application/json' };
}

/** Methods whose requests carry a body here. */
function hasBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/** Which cases a route gets, by weight. */
function casesFor(route: FuzzRoute, method: string): Array<readonly [CaseBuilder, number]> {
  const out: Array<readonly [CaseBuilder, number]> = [
    [PATH_CASES['path-garbage']!, 3],
    [PATH_CASES['path-raw']!, 2],
    [QUERY_CASES['query-garbage']!, route.query ? 4 : 2],
    [HEADER_CASES['header-host']!, 1],
    [HEADER_CASES['header-accept']!, 1],
    [HEADER_CASES['header-cookie']!, 1],
    [HEADER_CASES['header-auth']!, route.owner ? 2 : 1],
    [HEADER_CASES['header-non-latin1']!, 1],
    [HEADER_CASES['header-nul']!, 1],
    [HEADER_CASES['header-misc']!, 2],
    [HEADER_CASES['header-many']!, 0.3],
    [HEADER_CASES.method!, 1],
    [HEADER_CASES.version!, 0.5],
    [HEADER_CASES['header-length']!, hasBody(method) ? 2 : 0.5],
  ];
  if (hasBody(method)) {
    out.push(
      [BODY_CASES.valid!, 4],
      [BODY_CASES['json-wrong-type']!, route.multipart ? 1 : 6],
      [BODY_CASES['json-missing-fields']!, 2],
      [BODY_CASES['json-extra-fields']!, 1],
      [BODY_CASES['json-nul']!, 3],
      [BODY_CASES['json-raw-nul']!, 1],
      [BODY_CASES['json-huge-string']!, 1.5],
      [BODY_CASES['json-huge-number']!, 1],
      [BODY_CASES['json-long-array']!, 1],
      [BODY_CASES['json-deep']!, 2],
      [BODY_CASES['json-malformed']!, 2],
      [BODY_CASES['content-type']!, 2],
      [MULTIPART_CASES['multipart-valid']!, route.multipart ? 3 : 0.5],
      [MULTIPART_CASES['multipart-malformed']!, route.multipart ? 8 : 1],
      [MULTIPART_CASES['multipart-big-file']!, route.multipart ? 0.5 : 0.05],
    );
  } else {
    out.push([BODY_CASES.valid!, 4]);
  }
  return out;
}

/** Everything {@link makeRequest} needs besides the route. */
export interface MakeContext {
  seed: number;
  targets: FuzzTargets;
  secrets: FuzzSecrets;
  port: number;
}

/**
 * Request `n` of the run: to `route`, drawn from the catalogue by a generator seeded with
 * (`seed`, `n`) alone.
 */
export function makeRequest(n: number, route: FuzzRoute, ctx: MakeContext): FuzzRequest {
  const rng = new Rng(ctx.seed, n);
  const t = ctx.targets;
  const persona: Persona = route.owner
    ? rng.weighted([
        ['owner', 6],
        ['other-owner', 2],
        ['anonymous', 2],
      ])
    : rng.weighted([
        ['anonymous', 6],
        ['owner', 3],
        ['other-owner', 1],
      ]);
  const method = route.method === 'GET' && rng.chance(0.1) ? 'HEAD' : route.method;
  const path = fillPath(route, t, rng, 0.05);
  const input: CaseInput = { rng, route, t, secrets: ctx.secrets, port: ctx.port, persona, method, path };
  const made = rng.weighted(casesFor(route, method))(input);
  const sentMethod = made.method ?? method;
  const body = made.body;
  const query = made.query ?? sampleQuery(input);
  const target = made.target ?? (query ? `${path}?${query}` : path);
  const defaults: Array<[string, string | Buffer]> = [['Host', `127.0.0.1:${ctx.port}`]];
  const token = persona === 'owner' ? t.owner.token : persona === 'other-owner' ? t.other.token : undefined;
  if (token) defaults.push(['Authorization', `Bearer ${token}`]);
  if (token && rng.chance(0.7)) defaults.push(['Origin', `http://127.0.0.1:${ctx.port}`]);
  defaults.push(['User-Agent', 'charla-fuzz']);
  defaults.push(['Accept', rng.pick(['application/json', '*/*', 'text/html,application/xhtml+xml'])]);
  if (body !== undefined && made.contentType !== null && made.contentType !== undefined)
    defaults.push(['Content-Type', made.contentType]);
  if (made.contentLength !== null && (body !== undefined || hasBody(sentMethod)))
    defaults.push(['Content-Length', made.contentLength ?? String(body?.length ?? 0)]);
  signWebhook(route, body, defaults, ctx.secrets, rng);
  defaults.push(['Connection', 'close']);
  // A case's headers replace the defaults of the same name (null drops one), then its extra lines.
  const overrides = made.headers ?? [];
  const overridden = new Set(overrides.map(([k]) => k.toLowerCase()));
  const headers: Array<[string, string | Buffer]> = [
    ...defaults.filter(([k]) => !overridden.has(k.toLowerCase())),
    ...overrides.filter((h): h is [string, string | Buffer] => h[1] !== null),
    ...(made.extraHeaders ?? []),
  ];
  return {
    n,
    route: route.key,
    kind: made.kind,
    persona,
    method: sentMethod,
    target,
    headers,
    body,
    ...(made.version ? { version: made.version } : {}),
    ...(made.mayNotAnswer ? { mayNotAnswer: made.mayNotAnswer } : {}),
    summary: made.summary,
  };
}

/** Signs a webhook body with the fuzz app's secrets half the time, so the payload itself is fuzzed. */
function signWebhook(
  route: FuzzRoute,
  body: Buffer | undefined,
  headers: Array<[string, string | Buffer]>,
  secrets: FuzzSecrets,
  rng: Rng,
): void {
  if (!body || !rng.chance(0.5)) return;
  if (route.url === '/channels/whatsapp' && route.method === 'POST')
    headers.push([
      'X-Hub-Signature-256',
      `sha256=${createHmac('sha256', secrets.metaAppSecret).update(body).digest('hex')}`,
    ]);
  if (route.url === '/api/stripe/webhook') {
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', secrets.stripeWebhookSecret).update(`${ts}.`).update(body).digest('hex');
    headers.push(['Stripe-Signature', `t=${ts},v1=${sig}`]);
  }
}

/** A short text of a value for the report. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Bytes as "1.1 MB", "200 KB". */
export function fmtBytes(n: number): string {
  return n >= 1_000_000
    ? `${(n / 1_000_000).toFixed(1)} MB`
    : n >= 1000
      ? `${Math.round(n / 1000)} KB`
      : `${n} B`;
}

/** A fresh random seed (for runs that do not fix one). */
export function randomSeed(): number {
  return Number.parseInt(randomUUID().slice(0, 8), 16);
}
