/**
 * Requests generated from a route's JSON schema (the app's own OpenAPI document): mostly values
 * the schema accepts, built from real ids of the fixture workspace so they get past validation
 * into the services and the database, mixed with values that have broken production before (NUL
 * and lone surrogates in text, dates outside what PostgreSQL or JavaScript hold, integers beyond
 * what a date or a column takes, empty and unknown fields, deep nesting, duplicates).
 */

/** The part of JSON Schema that zod's OpenAPI transform emits for our routes. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: Schema;
}

/** A documented route: "POST /api/v1/workspaces/{workspaceId}/projects" and its schemas. */
export interface Operation {
  method: string;
  path: string;
  key: string;
  parameters: Parameter[];
  body?: Schema;
}

/** Kinds of fixture object whose real ids fill path params and id fields of the same kind. */
export type Kind =
  | 'workspace'
  | 'user'
  | 'project'
  | 'task'
  | 'client'
  | 'tagList'
  | 'tag'
  | 'group'
  | 'invite'
  | 'entry'
  | 'trashedEntry'
  | 'inviteToken'
  | 'resetToken';

/** What the generator draws real values from: the fixture workspace and one of another tenant. */
export interface Pools {
  ids: Record<Kind, string[]>;
  /** Ids of the same kinds in a workspace the caller is not a member of. */
  foreign: Partial<Record<Kind, string[]>>;
  emails: string[];
  password: string;
}

/** Which kind of object a field or param of this name refers to. */
const KIND_OF_NAME: Record<string, Kind> = {
  workspaceId: 'workspace',
  currentWorkspaceId: 'workspace',
  userId: 'user',
  userIds: 'user',
  managerUserIds: 'user',
  projectId: 'project',
  taskId: 'task',
  parentTaskId: 'task',
  clientId: 'client',
  tagId: 'tag',
  tagIds: 'tag',
  addTagIds: 'tag',
  removeTagIds: 'tag',
  intoTagId: 'tag',
  tagListId: 'tagList',
  groupId: 'group',
  groupIds: 'group',
  managerGroupIds: 'group',
  parentId: 'group',
  addToGroupId: 'group',
  removeFromGroupId: 'group',
  inviteId: 'invite',
  entryId: 'entry',
  ids: 'entry',
};

export function kindOf(name: string, routePath: string): Kind | undefined {
  if (name === 'token') return routePath.includes('/invites/') ? 'inviteToken' : 'resetToken';
  if (name === 'ids' && routePath.endsWith('/restore')) return 'trashedEntry';
  return KIND_OF_NAME[name];
}

// ---- a small seeded random source: the same seed gives the same requests ---------------------

export interface Rng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: tiny, fast and good enough to spread test cases. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T,
    chance: (p: number) => next() < p,
  };
}

/** A stable 32-bit hash of a string, to give each route its own stream of cases from one seed. */
export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---- values that have broken things --------------------------------------------------------

const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  ' \t\n ',
  'a\u0000b',
  '\u0000',
  'Name\u0000',
  '\ud800',
  'a\udfffb',
  'x\ud83d',
  '\u0000\ud800',
  'e\u0301',
  '\u202eevil',
  '\ufeff',
  '\uffff',
  '💥💥💥',
  "'; drop table users; --",
  '%',
  '_',
  '\\',
  '%00',
  'null',
  'NaN',
  '-1',
  '1e309',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'line\nbreak',
  '\r\n',
  ' padded ',
  'x'.repeat(256),
  'x'.repeat(10_001),
  '𝕏'.repeat(300),
];

const NASTY_NUMBERS: readonly number[] = [
  9007199254740991, -9007199254740991, 9007199254740992, 1e308, -1e308, 1e21, -1, 0, 0.5, -0.5, 1.5, 2147483647,
  2147483648, -2147483649, 4294967296, 1e-7,
];

const NASTY_DATES: readonly string[] = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1900-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '0000-01-01T00:00:00+14:00',
  '10000-01-01T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-01-01T00:00:00.123456789Z',
  '2024-01-01',
  '0001-01-01',
];

const NASTY_IDS: readonly string[] = [
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-a-uuid',
  '',
  '0',
];

const WRONG_TYPES: readonly unknown[] = [null, true, false, 0, 1, -1, 'x', [], {}, [null], { a: 1 }, [[[]]]];

/** Fields a client might try to set on an object it should not (mass assignment) or that break parsers. */
const UNKNOWN_FIELDS: readonly string[] = [
  'id',
  'workspaceId',
  'role',
  'ownerId',
  'createdAt',
  'deletedAt',
  'isAdmin',
  'passwordHash',
  'constructor',
  'unknownField',
  '',
  '\u0000',
];

function deepNest(depth: number, asArray: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

export function randomUuid(rng: Rng): string {
  const hex = () => rng.int(0, 15).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-${rng.pick(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`;
}

// ---- values the schema accepts -----------------------------------------------------------------

const WORDS = ['Design', 'review', 'Acme', 'Website', 'sprint', 'Zoë', 'Ålesund', '東京', 'café', 'Q3', 'ops'];
const TIME_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
const DURATIONS = ['15m', '1h', '1h 30m', '1:30', '0:45', '1.5h', '90m', '2', '45s'];
const CSV_SAMPLES = [
  'Client,Project,Task,Parent Task\nAcme,Website,Design,\n',
  'Client,Project,Task,Parent Task\nAcme,Website,Design,\nAcme,Website,Mockups,Design\n',
  'Project,Client\nIntranet,Globex\n',
  'Client,Project\n',
];

let serial = 0;
const unique = () => `${Date.now().toString(36)}${(++serial).toString(36)}`;

function words(rng: Rng, max = 3): string {
  return Array.from({ length: rng.int(1, max) }, () => rng.pick(WORDS)).join(' ');
}

function isoNear(rng: Rng): string {
  // Spread over a year, so entries made by different cases seldom overlap.
  const date = new Date(Date.now() - rng.int(-1, 24 * 365) * 3_600_000 - rng.int(0, 3_599) * 1000);
  const iso = date.toISOString();
  return rng.chance(0.8) ? iso : iso.replace('Z', '+02:00');
}

/** The schema's branches, null last so a value is mostly present. */
function branches(schema: Schema): Schema[] {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return [schema];
  return [...options].sort((a, b) => Number(a.type === 'null') - Number(b.type === 'null'));
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0];
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.enum) return typeof schema.enum[0];
  return undefined;
}

/** Where a generated value sits and what the schema said it should be, so a mutation can target it. */
export interface Slot {
  path: (string | number)[];
  schema: Schema;
  name: string;
}

interface GenContext {
  rng: Rng;
  pools: Pools;
  routePath: string;
  slots: Slot[];
}

function stringFor(schema: Schema, name: string, ctx: GenContext): string {
  const { rng, pools } = ctx;
  const kind = kindOf(name, ctx.routePath);
  if (kind && pools.ids[kind]?.length) return rng.pick(pools.ids[kind]);
  if (schema.format === 'uuid') return randomUuid(rng);
  if (schema.format === 'date-time') return isoNear(rng);
  if (schema.pattern === '^#[0-9a-fA-F]{6}$') return `#${rng.int(0, 0xffffff).toString(16).padStart(6, '0')}`;
  if (schema.pattern === '^[A-Za-z]{3}$') return rng.pick(['EUR', 'usd', 'GBP', 'chf']);
  if (schema.pattern?.startsWith('^\\d')) return String(rng.int(0, 99999));
  const lower = name.toLowerCase();
  if (lower.includes('email')) return rng.chance(0.5) ? rng.pick(pools.emails) : `fuzz.${unique()}@example.com`;
  if (lower.includes('password')) return rng.chance(0.85) ? pools.password : 'Brand-new-pass-7';
  if (lower === 'timezone') return rng.pick(TIME_ZONES);
  if (name === 'csv') return rng.pick(CSV_SAMPLES);
  if (name === 'duration') return rng.pick(DURATIONS);
  if (name === 'cursor') return rng.pick(['', 'abc', Buffer.from(isoNear(rng)).toString('base64url')]);
  const text = name === 'name' || name === 'company' ? `${words(rng, 2)} ${unique()}` : words(rng);
  const max = schema.maxLength ?? 200;
  const min = schema.minLength ?? 0;
  return text.length > max ? text.slice(0, max) : text.padEnd(min, 'x');
}

function numberFor(schema: Schema, integer: boolean, rng: Rng): number {
  const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const hi = Math.min(schema.maximum ?? lo + 1000, lo + 1000);
  const value = rng.chance(0.2) ? lo : rng.chance(0.1) ? (schema.maximum ?? hi) : lo + rng.next() * (hi - lo);
  return integer ? Math.round(value) : value;
}

function generate(schema: Schema, name: string, path: Slot['path'], ctx: GenContext): unknown {
  const { rng } = ctx;
  ctx.slots.push({ path, schema, name });
  if (schema.anyOf || schema.oneOf) {
    const options = branches(schema);
    const chosen = rng.chance(0.85) ? options[0] : rng.pick(options);
    return generate(chosen ?? {}, name, path, { ...ctx, slots: [] });
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.55)) out[key] = generate(child, key, [...path, key], ctx);
      }
      return cohere(out, schema, ctx);
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 4, min + 3);
      const items: unknown[] = [];
      const n = rng.int(min, max);
      for (let i = 0; i < n; i++) items.push(generate(schema.items ?? {}, name, [...path, i], ctx));
      return items;
    }
    case 'integer':
      return numberFor(schema, true, rng);
    case 'number':
      return numberFor(schema, false, rng);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return stringFor(schema, name, ctx);
  }
}

/**
 * Fields that only make sense together, made to agree most of the time, so valid cases get past
 * the services' own checks: an end after the start and within a day, an end or a duration, a
 * task of the chosen project, no stale page cursor.
 */
function cohere(out: Record<string, unknown>, schema: Schema, ctx: GenContext): Record<string, unknown> {
  const { rng, pools } = ctx;
  if (!rng.chance(0.85)) return out;
  const props = schema.properties ?? {};
  for (const [startKey, endKey] of [
    ['start', 'end'],
    ['from', 'to'],
  ] as const) {
    const raw = out[startKey];
    if (typeof raw !== 'string' || !(endKey in out)) continue;
    const start = new Date(raw).getTime();
    if (Number.isNaN(start)) continue; // a malformed start stays the case under test
    const end = new Date(start + rng.int(5, 180) * 60_000).toISOString();
    out[endKey] = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? end.slice(0, 10) : end; // days stay days (reports, re-apply)
  }
  if ('end' in props && 'duration' in props && 'start' in out) {
    if ('end' in out && 'duration' in out) delete out[rng.chance(0.5) ? 'end' : 'duration'];
    if (!('end' in out) && !('duration' in out)) out.duration = rng.pick(DURATIONS);
  }
  if (typeof out.taskId === 'string' && 'projectId' in props) out.projectId = pools.ids.project[0];
  delete out.cursor;
  return out;
}

/** A value that is wrong for this slot: mostly of the slot's own type, sometimes of any type. */
function nastyFor(slot: Slot, ctx: GenContext): unknown {
  const { rng, pools } = ctx;
  const schema = branches(slot.schema)[0] ?? {};
  const type = typeOf(schema);
  if (rng.chance(0.2)) return structuredClone(rng.pick(WRONG_TYPES));
  if (rng.chance(0.04)) return deepNest(rng.pick([64, 1000]), rng.chance(0.5));
  if (type === 'integer' || type === 'number') return rng.pick(NASTY_NUMBERS);
  if (type === 'array') {
    const item = generate(schema.items ?? {}, slot.name, [], { ...ctx, slots: [] });
    const many = (schema.maxItems ?? 50) + 1;
    return rng.pick([[], [item, item], Array.from({ length: many }, () => item), [item, null], [[item]]]);
  }
  if (type === 'object') return rng.pick([{}, { unknownField: rng.pick(NASTY_STRINGS) }, []]);
  if (type === 'boolean') return rng.pick(['true', 1, 0, 'yes', null]);
  // Strings: a real value with a bad character in it is the most likely to reach the database.
  const kind = kindOf(slot.name, ctx.routePath);
  if (schema.format === 'date-time' || slot.name === 'from' || slot.name === 'to') {
    if (rng.chance(0.8)) return rng.pick(NASTY_DATES);
  }
  if (slot.name === 'duration' && rng.chance(0.5)) return rng.pick([...NASTY_NUMBERS, '999999h', '-1h', '1e309']);
  if ((kind || schema.format === 'uuid') && rng.chance(0.6)) {
    const foreign = kind ? pools.foreign[kind] : undefined;
    const otherKind = rng.pick(Object.values(pools.ids).filter((ids) => ids.length > 0));
    return rng.pick([
      ...NASTY_IDS,
      randomUuid(rng),
      rng.pick(otherKind),
      ...(foreign?.length ? [rng.pick(foreign)] : []),
      (kind && pools.ids[kind]?.[0]?.toUpperCase()) || randomUuid(rng),
    ]);
  }
  const real = stringFor(schema, slot.name, ctx);
  const bad = rng.pick(NASTY_STRINGS);
  switch (rng.int(0, 4)) {
    case 0:
      return bad;
    case 1:
      return `${real}${bad}`;
    case 2:
      return `${real.slice(0, 1)}${bad}${real.slice(1)}`;
    default:
      // NUL and lone surrogates inside an otherwise good value: the commonest way to a 500.
      return `${real}${rng.pick(['\u0000', '\ud800', '\udc00', '\u0000\ud800'])}`;
  }
}

function setAt(root: unknown, path: Slot['path'], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container = (root ?? (typeof head === 'number' ? [] : {})) as Record<string | number, unknown>;
  if (typeof container !== 'object') return root;
  container[head as string] = setAt(container[head as string], rest, value);
  return container;
}

function deleteAt(root: unknown, path: Slot['path']): void {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
  const last = path[path.length - 1];
  if (parent && typeof parent === 'object' && last !== undefined) {
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete (parent as Record<string, unknown>)[last];
  }
}

// ---- one request --------------------------------------------------------------------------------

export type Who = 'owner' | 'member' | 'nobody';

export interface Case {
  /** What was done to it, for the report: "valid", "mutated: body.name", "wild body". */
  shape: string;
  who: Who;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The body as sent (already JSON text when `rawBody` says so), undefined for none. */
  body: unknown;
  rawBody?: string;
}

/**
 * One generated request for an operation: ~40% valid, ~50% valid with one to three mutations
 * (a nasty value in a field, a field dropped, unknown fields, a query or path param broken),
 * ~10% with a body that is entirely wrong.
 */
export function generateCase(op: Operation, pools: Pools, rng: Rng): Case {
  const ctx: GenContext = { rng, pools, routePath: op.path, slots: [] };
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const p of op.parameters) {
    if (p.in === 'path') params[p.name] = String(generate(p.schema, p.name, ['params', p.name], ctx));
    if (p.in === 'query' && (p.required || rng.chance(0.5))) {
      query[p.name] = generate(p.schema, p.name, ['query', p.name], ctx);
    }
  }
  const queryParams = op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]);
  cohere(query, { properties: Object.fromEntries(queryParams) }, ctx);
  let body = op.body ? generate(op.body, 'body', ['body'], ctx) : undefined;
  const who: Who = rng.chance(0.75) ? 'owner' : rng.chance(0.85) ? 'member' : 'nobody';
  const roll = rng.next();
  if (roll < 0.4) return { shape: 'valid', who, params, query, body };

  if (roll > 0.9) {
    const wild = rng.pick<[string, unknown, string?]>([
      ['null', null],
      ['array', []],
      ['string', 'x'],
      ['number', 9007199254740991],
      ['empty object', {}],
      ['unknown fields only', { unknownField: 1, id: randomUuid(rng) }],
      ['deep object', undefined, `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
      ['deep array', undefined, `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
      ['prototype pollution', undefined, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'],
      ['broken JSON', undefined, '{"name": "unterminated'],
      ['NUL in JSON text', undefined, '{"name":"a\u0000b"}'],
      ['duplicate keys', undefined, '{"name":"a","name":"b"}'],
    ]);
    return { shape: `wild body: ${wild[0]}`, who, params, query, body: wild[1], rawBody: wild[2] };
  }

  const targets: string[] = [];
  const root: Record<string, unknown> = { params, query, body };
  const mutations = rng.int(1, 3);
  for (let i = 0; i < mutations; i++) {
    // Path params are broken less often than the rest: a wrong id mostly just ends in a 404.
    const others = ctx.slots.filter((s) => s.path[0] !== 'params');
    const pool = others.length > 0 && rng.chance(0.75) ? others : ctx.slots;
    const slot = rng.pick(pool.length > 0 ? pool : [{ path: ['body'], schema: {}, name: 'body' }]);
    const isBody = slot.path[0] === 'body';
    const op2 = rng.next();
    if (isBody && op2 < 0.12 && slot.path.length > 1) {
      deleteAt(root, slot.path);
      targets.push(`-${slot.path.join('.')}`);
    } else if (isBody && op2 < 0.25) {
      const parentPath = typeOf(slot.schema) === 'object' ? slot.path : slot.path.slice(0, -1);
      const field = rng.pick(UNKNOWN_FIELDS);
      const parent = parentPath.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
      if (parent && typeof parent === 'object' && !Array.isArray(parent)) {
        (parent as Record<string, unknown>)[field] = rng.chance(0.5) ? rng.pick(NASTY_STRINGS) : randomUuid(rng);
        targets.push(`+${[...parentPath, field].join('.')}`);
      }
    } else if (isBody && op2 < 0.32) {
      root.body = setAt(root.body, slot.path.slice(1), null);
      targets.push(`${slot.path.join('.')}=null`);
    } else {
      const value = nastyFor(slot, ctx);
      setAt(root, slot.path, slot.path[0] === 'params' ? String(value) : value);
      targets.push(slot.path.join('.'));
    }
  }
  body = root.body;
  return { shape: `mutated: ${targets.join(', ')}`, who, params, query, body };
}

/** Percent-encodes like encodeURIComponent, but lets lone surrogates through as the bytes they'd be in CESU-8. */
export function encodePart(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f))
        .toString(16)
        .toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** The URL of a case: path params put in, query params as the browser would send them. */
export function urlOf(op: Operation, c: Case): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodePart(c.params[name] ?? ''));
  const parts: string[] = [];
  for (const [key, value] of Object.entries(c.query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const text = v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      parts.push(`${encodePart(key)}=${encodePart(text)}`);
    }
  }
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

/** The documented API routes of an OpenAPI document. */
export function operationsOf(spec: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, raw] of Object.entries(methods)) {
      const operation = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      };
      ops.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return ops;
}
