import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { AppError, type ConstraintTable, constraintViolation, mapConstraints } from './errors.js';

// The one mapping of unique and foreign-key violations, against the real database's errors
// (PGlite or PostgreSQL): each must name the violated constraint for the table to find it.
let handle: { db: Db; close(): Promise<void> };

const table: ConstraintTable = {
  probe_name_key: { message: 'This name is taken.', field: 'name' },
  probe_parent_fkey: { message: 'The parent does not exist.', field: 'parentId' },
  probe_code_key: { code: 'code_taken', message: 'Choose another code.', status: 422 },
};

async function violation(statement: string): Promise<unknown> {
  try {
    await sql.raw(statement).execute(handle.db);
  } catch (error) {
    return error;
  }
  throw new Error(`expected a violation from: ${statement}`);
}

beforeAll(async () => {
  handle = await openTestDb();
  await sql`create table probe (
    id int primary key,
    name text constraint probe_name_key unique,
    code text constraint probe_code_key unique,
    parent_id int constraint probe_parent_fkey references probe (id)
  )`.execute(handle.db);
  await sql`insert into probe (id, name, code) values (1, 'a', 'x')`.execute(handle.db);
});
afterAll(() => handle.close());

describe('constraint violations', () => {
  it('maps a unique violation to 409 conflict with the field', async () => {
    const error = constraintViolation(await violation(`insert into probe (id, name) values (2, 'a')`), table);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'conflict', status: 409, message: 'This name is taken.' });
    expect(error?.fields).toEqual({ name: 'This name is taken.' });
  });

  it('maps a foreign-key violation to 422 invalid_reference with the field', async () => {
    const error = constraintViolation(await violation('insert into probe (id, parent_id) values (3, 99)'), table);
    expect(error).toMatchObject({ code: 'invalid_reference', status: 422, message: 'The parent does not exist.' });
    expect(error?.fields).toEqual({ parentId: 'The parent does not exist.' });
  });

  it('takes the code and status a module gives, without fields when it names none', async () => {
    const error = constraintViolation(await violation(`insert into probe (id, code) values (4, 'x')`), table);
    expect(error).toMatchObject({ code: 'code_taken', status: 422 });
    expect(error?.fields).toBeUndefined();
  });

  it('leaves constraints the table does not name, and other errors, alone', async () => {
    expect(constraintViolation(await violation(`insert into probe (id, name) values (1, 'b')`), table)).toBeUndefined();
    expect(constraintViolation(new Error('boom'), table)).toBeUndefined();
    expect(constraintViolation(undefined, table)).toBeUndefined();
  });

  it('runs a write and throws the mapped error', async () => {
    await expect(
      mapConstraints(table, () => sql`insert into probe (id, name) values (5, 'a')`.execute(handle.db)),
    ).rejects.toMatchObject({ code: 'conflict', fields: { name: 'This name is taken.' } });
    await expect(mapConstraints(table, async () => 'done')).resolves.toBe('done');
  });
});
