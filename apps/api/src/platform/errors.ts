import type { ApiErrorBody } from '@sundial/core';
import { messages } from '@sundial/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** A failure the client can act on: a stable snake_case code, a human message and a status. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(
    code: string,
    message: string,
    options: { status?: number; fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? 400;
    this.fields = options.fields;
    this.headers = options.headers;
  }
}

export const notFound = (what = 'Not found.') => new AppError('not_found', what, { status: 404 });
export const forbidden = () => new AppError('forbidden', messages.forbidden, { status: 403 });
export const unauthenticated = () => new AppError('unauthenticated', messages.signInRequired, { status: 401 });

export function validationError(fields: Record<string, string>): AppError {
  const first = Object.values(fields)[0] ?? 'The request is not valid.';
  return new AppError('validation_failed', first, { status: 422, fields });
}

function body(code: string, message: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

interface PgError {
  code?: string;
  constraint?: string;
  hint?: string;
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** A database rule (a trigger) refusing a write: RAISE … USING ERRCODE 'SD409', HINT '<code>', MESSAGE '<for people>'. */
const RULE_CONFLICT = 'SD409';

/** What a violated unique or foreign-key constraint means to the person who sent the request. */
export interface ConstraintMeaning {
  message: string;
  /** The request field at fault: the answer then carries `fields: { [field]: message }`. */
  field?: string;
  /** Default `conflict` for a unique, `invalid_reference` for a foreign-key violation. */
  code?: string;
  /** Default 409 for a unique, 422 for a foreign-key violation. */
  status?: number;
}

/** Constraint (or unique index) name -> its meaning; each module gives the table of its own. */
export type ConstraintTable = Readonly<Record<string, ConstraintMeaning>>;

/**
 * The AppError for a unique (23505) or foreign-key (23503) violation of a constraint named in
 * the table; undefined for any other error, which then reaches the generic answer below.
 */
export function constraintViolation(error: unknown, table: ConstraintTable): AppError | undefined {
  const { code, constraint } = (error ?? {}) as PgError;
  if (code !== UNIQUE_VIOLATION && code !== FOREIGN_KEY_VIOLATION) return undefined;
  const meaning = constraint === undefined ? undefined : table[constraint];
  if (!meaning) return undefined;
  const unique = code === UNIQUE_VIOLATION;
  return new AppError(meaning.code ?? (unique ? 'conflict' : 'invalid_reference'), meaning.message, {
    status: meaning.status ?? (unique ? 409 : 422),
    ...(meaning.field ? { fields: { [meaning.field]: meaning.message } } : {}),
  });
}

/** Runs a write; a violation of a constraint in the table becomes its AppError. */
export async function mapConstraints<T>(table: ConstraintTable, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw constraintViolation(error, table) ?? error;
  }
}

/** Installs the one error shape for every failure, including unknown routes. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(body('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`));
  });

  app.setErrorHandler((error: FastifyError & PgError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(body(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        fields[key] ??= issue.message ?? 'Invalid value.';
      }
      const first = Object.values(fields)[0] ?? 'The request is not valid.';
      return reply.status(422).send(body('validation_failed', first, fields));
    }
    if (error.code === RULE_CONFLICT) {
      return reply.status(409).send(body(error.hint ?? 'conflict', error.message));
    }
    // A violation no module's table named: the generic meaning.
    if (error.code === UNIQUE_VIOLATION) {
      return reply.status(409).send(body('conflict', 'This already exists.'));
    }
    if (error.code === FOREIGN_KEY_VIOLATION) {
      return reply.status(422).send(body('invalid_reference', 'A referenced item does not exist.'));
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const code = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'unsupported_media_type' : 'bad_request';
      return reply.status(status).send(body(code, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send(body('internal_error', `Something went wrong on our side. Reference: ${request.id}.`));
  });
}
