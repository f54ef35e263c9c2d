import { z } from 'zod';
import type { ClientRow } from './clients.repository.js';

export const clientView = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  currency: z.string().nullable(),
  note: z.string().nullable(),
  archived: z.boolean(),
  projectCount: z.number().int(),
  createdAt: z.string(),
});
export type ClientView = z.infer<typeof clientView>;

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
