import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as checkedSerializerCompiler } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';

/** Copies a response value keeping only what its schema declares. */
type Projection = (value: unknown) => unknown;

const asIs: Projection = (value) => value;

/**
 * The projection for a schema made of objects, arrays, nullable/optional parts and plain values:
 * what the schema declares is kept, anything else dropped, and nothing is checked. Undefined for
 * a schema with anything more (unions, records, transforms, codecs, loose objects): those keep
 * the full check.
 */
export function projectionOf(schema: $ZodType): Projection | undefined {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'null':
      return asIs;
    case 'nullable': {
      const inner = projectionOf(def.innerType as $ZodType);
      return inner && ((value) => (value === null ? null : inner(value)));
    }
    case 'optional': {
      const inner = projectionOf(def.innerType as $ZodType);
      return inner && ((value) => (value === undefined ? undefined : inner(value)));
    }
    case 'array': {
      const element = projectionOf(def.element as $ZodType);
      return element && ((value) => (Array.isArray(value) ? value.map(element) : value));
    }
    case 'object': {
      if (def.catchall !== undefined) return undefined;
      // Plain values are copied as they are; only nested parts go through their projection.
      const plain: string[] = [];
      const nested: [string, Projection][] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, $ZodType>)) {
        const projection = projectionOf(field);
        if (!projection) return undefined;
        if (projection === asIs) plain.push(key);
        else nested.push([key, projection]);
      }
      return (value) => {
        if (value === null || typeof value !== 'object') return value;
        const from = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < plain.length; i++) {
          const key = plain[i] as string;
          out[key] = from[key];
        }
        for (let i = 0; i < nested.length; i++) {
          const [key, projection] = nested[i] as [string, Projection];
          const field = from[key];
          if (field !== undefined) out[key] = projection(field);
        }
        return out;
      };
    }
    default:
      return undefined;
  }
}

/**
 * Responses in production: each is cut to what its route's schema declares (nothing undeclared
 * leaves the server), without checking every value against the schema on every request. Tests
 * and development keep the full zod check of every response (`checkedSerializerCompiler`), so a
 * presenter that drifts from its schema fails there; schemas the projection cannot follow keep
 * the check in production too.
 */
export const projectingSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const { schema } = route as { schema: unknown };
  const zodSchema =
    schema && typeof schema === 'object' && '_zod' in schema
      ? (schema as $ZodType)
      : (schema as { properties?: $ZodType } | undefined)?.properties;
  const projection = zodSchema && '_zod' in zodSchema ? projectionOf(zodSchema) : undefined;
  if (!projection) return checkedSerializerCompiler(route as Parameters<typeof checkedSerializerCompiler>[0]);
  return (data) => JSON.stringify(projection(data));
};
