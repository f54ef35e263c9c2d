import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Client invoices (issue 17): an invoice of a client made from their unbilled billable time, its
 * lines, and the link of each entry to its invoice; the workspace's invoice settings (number
 * pattern and counter, address, payment details).
 *
 * `client_invoice_entries` is the link: an entry is on at most one invoice (its primary key), so
 * two invoices made at once from the same time cannot both take it (the second gets a unique
 * violation, a 409). Voiding an invoice or deleting a draft deletes its links.
 *
 * The trigger `time_entries_invoice_lock` keeps a linked entry as it was invoiced, whatever path
 * writes it: a change of its time (start, end, duration), person, project, task, billable flag or
 * rate, or deleting it, is refused with SQLSTATE SD409 (the API's error handler answers 409 with
 * the hint as the code and the message as written here). A note or tags edit stays allowed; so
 * does removing the person or the workspace (the cascade has deleted their membership or the workspace by then).
 * `invoiced_at` (the reports' "invoiced" fact) is set when the invoice is issued and cleared when it is
 * voided; while the invoice is issued it cannot be cleared by hand.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table client_invoice_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      number_pattern text not null default '{YYYY}-{0000}',
      next_number integer not null default 1 check (next_number >= 1),
      address text not null default '',
      payment_details text not null default '',
      updated_at timestamptz not null default now()
    );

    create table client_invoices (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      client_id uuid not null,
      status text not null default 'draft' check (status in ('draft', 'issued', 'sent', 'paid', 'void')),
      number text,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      period_from date not null,
      period_to date not null,
      group_by text not null check (group_by in ('project', 'task', 'person', 'entry')),
      notes text not null default '',
      discount jsonb,
      taxes jsonb not null default '[]',
      total_cents integer not null default 0,
      due_on date,
      issued_on date,
      sent_at timestamptz,
      paid_on date,
      voided_at timestamptz,
      client_name text not null,
      client_address text not null default '',
      seller_address text not null default '',
      payment_details text not null default '',
      created_by_user_id uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      constraint client_invoices_number_key unique (workspace_id, number),
      constraint client_invoices_numbered check ((status = 'draft') = (number is null)),
      foreign key (workspace_id, client_id) references clients (workspace_id, id)
    );
    create index client_invoices_list on client_invoices (workspace_id, created_at desc);

    create table client_invoice_lines (
      workspace_id uuid not null,
      invoice_id uuid not null,
      position integer not null,
      kind text not null check (kind in ('time', 'fixed')),
      description text not null,
      seconds integer,
      rate_cents integer,
      amount_cents integer not null,
      primary key (invoice_id, position),
      foreign key (workspace_id, invoice_id) references client_invoices (workspace_id, id) on delete cascade
    );

    create table client_invoice_entries (
      entry_id uuid not null,
      workspace_id uuid not null,
      invoice_id uuid not null,
      seconds integer not null,
      rate_cents integer,
      amount_cents integer not null,
      constraint client_invoice_entries_pkey primary key (entry_id),
      foreign key (workspace_id, invoice_id) references client_invoices (workspace_id, id) on delete cascade,
      foreign key (workspace_id, entry_id) references time_entries (workspace_id, id) on delete cascade
    );
    create index client_invoice_entries_invoice on client_invoice_entries (invoice_id);

  `,
  );
  // One statement with a body: runSql splits scripts at semicolons.
  await sql
    .raw(`
    create function time_entries_invoice_lock() returns trigger language plpgsql as $$
    declare
      invoice record;
    begin
      select i.number, i.status into invoice
        from client_invoice_entries l join client_invoices i on i.id = l.invoice_id
        where l.entry_id = old.id;
      if not found then
        return coalesce(new, old);
      end if;
      if tg_op = 'DELETE' then
        if not exists (select 1 from memberships m where m.workspace_id = old.workspace_id and m.user_id = old.user_id)
           or not exists (select 1 from workspaces w where w.id = old.workspace_id) then
          return old;
        end if;
      elsif (new.start_at, new.end_at, new.duration_seconds, new.user_id, new.project_id, new.task_id, new.billable,
             new.billable_rate_cents) is not distinct from
            (old.start_at, old.end_at, old.duration_seconds, old.user_id, old.project_id, old.task_id, old.billable,
             old.billable_rate_cents)
        and (new.invoiced_at is not distinct from old.invoiced_at or invoice.status = 'draft') then
        return new;
      end if;
      raise exception using
        errcode = 'SD409',
        hint = 'entry_invoiced',
        message = case when invoice.number is null
          then 'This time is on a draft invoice: its time, project, task, billable state and rate cannot change. Delete the draft to free it.'
          else format('This time is on invoice %s: its time, project, task, billable state and rate cannot change. Void the invoice to free it.', invoice.number)
        end;
    end;
    $$`)
    .execute(db);
  await runSql(
    db,
    `
    create trigger time_entries_invoice_lock
      before update of start_at, end_at, duration_seconds, user_id, project_id, task_id, billable, billable_rate_cents, invoiced_at
        or delete on time_entries
      for each row execute function time_entries_invoice_lock();
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists time_entries_invoice_lock on time_entries;
    drop function if exists time_entries_invoice_lock();
    drop table if exists client_invoice_entries;
    drop table if exists client_invoice_lines;
    drop table if exists client_invoices;
    drop table if exists client_invoice_settings;
  `,
  );
}
