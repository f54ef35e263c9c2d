import type { ClientView } from '@sundial/core';
import type { ClientRow } from './clients.repository.js';

export { type ClientView, clientView } from '@sundial/core';

export function presentClient(row: ClientRow): ClientView {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    currency: row.currency,
    note: row.note,
    archived: row.archived_at !== null,
    projectCount: Number(row.project_count ?? 0),
    createdAt: new Date(row.created_at).toISOString(),
  };
}
