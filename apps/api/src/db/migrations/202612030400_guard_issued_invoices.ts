import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Issued invoices and credit notes are immutable (docs/decisions/0010-billing.md), now by the
 * database and not only by convention: an update may change an invoice's status (open to paid,
 * either to void) and nothing else (its number, amounts, tax, buyer and seller snapshots, period,
 * charge), and an invoice's lines never change. A correction is a credit note, a new row.
 * Deletes stay possible: a deleted workspace takes its invoices with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Statements with a body, one each: runSql splits scripts at semicolons.
  await sql
    .raw(`
    create function invoices_immutable() returns trigger language plpgsql as $$
    begin
      -- Nested: a line has no status, and an expression is only planned when it is reached.
      if tg_table_name = 'invoices' then
        if to_jsonb(new) - 'status' = to_jsonb(old) - 'status'
           and (new.status = old.status or (old.status = 'open' and new.status in ('paid', 'void'))
                or (old.status = 'paid' and new.status = 'void')) then
          return new;
        end if;
      end if;
      raise exception using
        errcode = 'SD409',
        hint = 'invoice_immutable',
        message = 'An issued invoice cannot be changed: only its status may go from open to paid or void, or from paid to void. Correct it with a credit note.';
    end;
    $$`)
    .execute(db);
  await runSql(
    db,
    `
    create trigger invoices_immutable before update on invoices
      for each row execute function invoices_immutable();
    create trigger invoice_lines_immutable before update on invoice_lines
      for each row execute function invoices_immutable();
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists invoice_lines_immutable on invoice_lines;
    drop trigger if exists invoices_immutable on invoices;
    drop function if exists invoices_immutable();
  `,
  );
}
