import { Readable } from 'node:stream';
import { isStorableText, textMessages } from '@sundial/core';
import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from './errors.js';

/** The largest JSON body a route takes (imports read their file as a stream, with limits of their own). */
export const BODY_LIMIT_BYTES = 1_048_576;
/** No request of ours nests deeper than a few levels; anything far deeper is refused before validation. */
export const MAX_INPUT_DEPTH = 16;

type Problem = { kind: 'depth' } | { kind: 'text'; path: string };

/**
 * The first thing wrong with a parsed input, walking it without recursion (so a deeply nested
 * body cannot exhaust the stack): too deep, or a string or key PostgreSQL could not store.
 */
export function findInputProblem(input: unknown): Problem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: input, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (!isStorableText(value)) return { kind: 'text', path };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { kind: 'depth' };
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return { kind: 'text', path: path || 'body' };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Refuses, for every route and before its own schema runs, input that no schema should have to
 * think about: a NUL or an unpaired surrogate anywhere in the body, query or path (422 naming the
 * field), and bodies nested deeper than any of ours (400). Sizes are bounded by Fastify's
 * bodyLimit (BODY_LIMIT_BYTES).
 */
export function installInputGuard(app: FastifyInstance): void {
  // A callback hook (no promise per request): every request passes through it.
  app.addHook('preValidation', (request, _reply, done) => {
    // A body left as a stream (an import file) is checked by its reader as it streams.
    const body = request.body instanceof Readable ? undefined : request.body;
    for (const input of [request.params, request.query, body]) {
      const problem = findInputProblem(input);
      if (!problem) continue;
      if (problem.kind === 'depth') {
        done(new AppError('too_deep', 'The request is nested too deeply.', { status: 400 }));
      } else {
        done(validationError({ [problem.path || 'body']: textMessages.unstorable }));
      }
      return;
    }
    done();
  });
}
