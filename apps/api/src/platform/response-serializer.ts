import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as checkedSerializerCompiler } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';

/** The part of JSON Schema the response writer is compiled from. */
export type WriterSchema = { type?: string | string[]; [keyword: string]: unknown };

const typeOfValues = (values: unknown[]): string | undefined => {
  const types = new Set(values.map((value) => (value === null ? 'null' : typeof value)));
  const [only] = types;
  return types.size === 1 && (only === 'string' || only === 'number' || only === 'boolean') ? only : undefined;
};

/**
 * The JSON Schema of a zod schema made of objects, arrays, nullable/optional parts and plain
 * values (strings, numbers, booleans, enums, literals, null), for a writer that sends what the
 * schema declares and drops anything else, without checking values. No property is `required`:
 * an absent value is left out, as `JSON.stringify` leaves out `undefined`. Undefined for a schema
 * with anything more (unions, records, transforms, codecs, defaults, loose objects): those keep the
 * full check.
 */
export function writerSchemaOf(schema: $ZodType): WriterSchema | undefined {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return { type: def.type };
    case 'enum': {
      const type = typeOfValues(Object.values(def.entries as Record<string, unknown>));
      return type ? { type } : undefined;
    }
    case 'literal': {
      const type = typeOfValues(def.values as unknown[]);
      return type ? { type } : undefined;
    }
    case 'nullable': {
      const inner = writerSchemaOf(def.innerType as $ZodType);
      if (!inner) return undefined;
      return typeof inner.type === 'string' ? { ...inner, type: [inner.type, 'null'] } : undefined;
    }
    case 'optional':
      return writerSchemaOf(def.innerType as $ZodType);
    case 'array': {
      const items = writerSchemaOf(def.element as $ZodType);
      return items && { type: 'array', items };
    }
    case 'object': {
      if (def.catchall !== undefined) return undefined;
      const properties: Record<string, WriterSchema> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, $ZodType>)) {
        const property = writerSchemaOf(field);
        if (!property) return undefined;
        properties[key] = property;
      }
      return { type: 'object', properties, additionalProperties: false };
    }
    default:
      return undefined;
  }
}

/**
 * Responses in production: each is written by a JSON writer compiled once per route from its
 * schema (fast-json-stringify), which sends only what the schema declares (nothing undeclared
 * leaves the server) and checks no value on every request: no copy of the response and no
 * second walk through it, as `JSON.stringify` of a projected copy needed. Tests and development
 * keep the full zod check of every response (`checkedSerializerCompiler`), so a presenter that
 * drifts from its schema fails there; schemas the writer cannot follow keep the check in
 * production too.
 */
export const projectingSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const { schema } = route as { schema: unknown };
  const zodSchema =
    schema && typeof schema === 'object' && '_zod' in schema
      ? (schema as $ZodType)
      : (schema as { properties?: $ZodType } | undefined)?.properties;
  const writerSchema = zodSchema && '_zod' in zodSchema ? writerSchemaOf(zodSchema) : undefined;
  if (!writerSchema) return checkedSerializerCompiler(route as Parameters<typeof checkedSerializerCompiler>[0]);
  return fastJson(writerSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
};
