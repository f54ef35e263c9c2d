import { Readable } from 'node:stream';
import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import type { $ZodType } from 'zod/v4/core';
import { type WriterSchema, writerSchemaOf } from './response-serializer.js';
import { timeSlices } from './time-slices.js';

type Writer = (value: unknown) => string;

/** Bytes gathered before a piece is handed to the socket. */
const PIECE = 256 * 1024;

const compiled = new WeakMap<object, Map<string, { head: Writer; node: Writer }>>();

/** `schema`'s properties but `key`, as the writer of an object without that key. */
function without(schema: WriterSchema, key: string): Writer {
  const { [key]: _left, ...rest } = (schema.properties ?? {}) as Record<string, WriterSchema>;
  return fastJson({ ...schema, properties: rest } as Parameters<typeof fastJson>[0]) as Writer;
}

/**
 * The writers of `schema` without its array `key` (the head) and of one of the array's items
 * without its own `nested` array (a node; the subgroups of a group are written one by one). The
 * node writer serves every depth: the items declare the same fields at each (a Summary's groups
 * are spelled out for three levels, `nested` aside).
 */
function writersOf(schema: $ZodType, key: string, nested: string) {
  const byKey = compiled.get(schema) ?? new Map<string, { head: Writer; node: Writer }>();
  compiled.set(schema, byKey);
  let writers = byKey.get(`${key}/${nested}`);
  if (!writers) {
    const whole = writerSchemaOf(schema);
    const items = (whole?.properties as Record<string, WriterSchema> | undefined)?.[key]?.items as
      | WriterSchema
      | undefined;
    if (!whole || !items) throw new Error(`No JSON writer for the array "${key}" of this schema.`);
    writers = { head: without(whole, key), node: without(items, nested) };
    byKey.set(`${key}/${nested}`, writers);
  }
  return writers;
}

/** `written` (an object's JSON) opened again to take `key`'s array: `{"a":1,"key":[`. */
const reopen = (written: string, key: string) =>
  `${written.slice(0, -1)}${written === '{}' ? '' : ','}${JSON.stringify(key)}:[`;

/**
 * An answer with one large array of nested items (a Summary's groups and their subgroups: 535,000
 * of them, 90 MB of JSON), written item by item in time slices as the socket takes it: one
 * serialisation of the whole held the event loop for seconds, with the whole text in memory. It
 * writes what the production writer writes (only what `schema` declares), the array last.
 */
export function jsonInSlices<T extends object>(
  schema: $ZodType,
  key: keyof T & string,
  value: T,
  nested = 'children',
): Readable {
  const { head, node } = writersOf(schema, key, nested);
  function* textOf(item: Record<string, unknown>): Generator<string> {
    const children = item[nested];
    if (!Array.isArray(children)) {
      yield node(item);
      return;
    }
    yield reopen(node({ ...item, [nested]: undefined }), nested);
    for (let i = 0; i < children.length; i++) {
      if (i > 0) yield ',';
      yield* textOf(children[i]);
    }
    yield ']}';
  }
  function* parts(): Generator<string> {
    yield reopen(head({ ...value, [key]: undefined }), key);
    const list = (value[key] ?? []) as Record<string, unknown>[];
    for (let i = 0; i < list.length; i++) {
      if (i > 0) yield ',';
      yield* textOf(list[i] as Record<string, unknown>);
    }
    yield ']}';
  }
  async function* pieces() {
    const slices = timeSlices();
    let piece = '';
    for (const part of parts()) {
      piece += part;
      if (piece.length >= PIECE) {
        yield piece;
        piece = '';
      }
      if (slices.due()) await slices.pause();
    }
    yield piece;
  }
  return Readable.from(pieces(), { objectMode: false });
}

/** Above this many items (nested ones counted), an answer is written in time slices. */
export const SLICED_ABOVE = 5_000;

/** Whether `list` holds more than `limit` items, nested ones counted (stops counting there). */
function holdsMore(list: readonly Record<string, unknown>[], nested: string, limit: number): boolean {
  let count = 0;
  const walk = (items: readonly Record<string, unknown>[]): boolean => {
    for (const item of items) {
      if (++count > limit) return true;
      const children = item[nested];
      if (Array.isArray(children) && walk(children)) return true;
    }
    return false;
  };
  return walk(list);
}

/**
 * A route's answer: `value` as it is (the route's writer sends it, checked in tests) when its
 * array `key` is small, else written in time slices by `jsonInSlices`.
 */
export function replyInSlices<T extends object>(
  reply: FastifyReply,
  schema: $ZodType,
  key: keyof T & string,
  value: T,
  nested = 'children',
): T | FastifyReply {
  const list = (value[key] ?? []) as Record<string, unknown>[];
  if (!holdsMore(list, nested, SLICED_ABOVE)) return value;
  return reply.type('application/json; charset=utf-8').send(jsonInSlices(schema, key, value, nested));
}
