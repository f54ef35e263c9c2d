/**
 * The parts of SCIM 2.0 (RFC 7643/7644) Sundial speaks, as Okta and Microsoft Entra call them:
 * filters of `attr eq "value"` (joined by `or`, as Entra sends), PATCH operations with any
 * capitalisation of `op` ("Replace"), paths like `emails[type eq "work"].value`, and errors in
 * SCIM's shape.
 */
export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
} as const;

export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: 'uniqueness' | 'invalidFilter' | 'invalidValue' | 'invalidPath' | 'noTarget' | 'mutability',
  ) {
    super(message);
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [SCHEMA.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** One `attr eq "value"` clause. */
export interface Clause {
  attribute: string;
  value: string;
}

/**
 * Parses a filter of `eq` clauses joined by `or` (`userName eq "a@b.c" or externalId eq "x"`);
 * anything else is 400 invalidFilter. Attributes are case-insensitive (RFC 7643 §2.1).
 */
export function parseFilter(filter: string | undefined): Clause[] {
  if (filter === undefined || filter.trim() === '') return [];
  const clauses: Clause[] = [];
  const clause = /^\s*([A-Za-z][\w.:[\]"= ]*?)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*(?:or\s+|$)/i;
  let rest = filter;
  while (rest.trim() !== '') {
    const match = clause.exec(rest);
    if (!match?.[1] || match[2] === undefined) {
      throw new ScimError(
        400,
        'Only filters of the form attribute eq "value" (joined by or) are supported.',
        'invalidFilter',
      );
    }
    clauses.push({ attribute: match[1].trim().toLowerCase(), value: match[2].replace(/\\(.)/g, '$1') });
    rest = rest.slice(match[0].length);
  }
  return clauses;
}

/** startIndex (1-based) and count of a list request, bounded. */
export function pageOf(query: { startIndex?: string; count?: string }): {
  offset: number;
  limit: number;
  startIndex: number;
} {
  const startIndex = Math.max(1, Number.parseInt(query.startIndex ?? '1', 10) || 1);
  const count = Math.min(200, Math.max(0, Number.parseInt(query.count ?? '100', 10) || 0));
  return { offset: startIndex - 1, limit: count, startIndex };
}

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  /** Lower-cased; empty when the operation carries an object of attributes. */
  path: string;
  value: unknown;
}

/** The operations of a PatchOp body, `op` lower-cased ("Replace" from Entra), paths lower-cased. */
export function patchOperations(body: unknown): PatchOperation[] {
  const operations = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ScimError(400, 'A PATCH needs Operations.', 'invalidValue');
  }
  return operations.map((raw) => {
    const o = raw as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw new ScimError(400, `Unknown PATCH op "${String(o.op)}".`, 'invalidValue');
    }
    return { op, path: typeof o.path === 'string' ? o.path.trim().toLowerCase() : '', value: o.value };
  });
}

/** SCIM booleans arrive as true or "True" (Entra). */
export function asBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, 'active must be true or false.', 'invalidValue');
}

/** The members of a Groups PATCH value or a Group body: `[{ value: userId }]`. */
export function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list
    .map((m) => (m as { value?: unknown })?.value)
    .filter((v): v is string => typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v));
}
