import type { Timestamp } from '../tables.js';

/** A workspace's logo: PNG or JPEG bytes, checked on upload (issue 15, PDF exports). */
export interface WorkspaceLogosTable {
  workspace_id: string;
  content_type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  data: Uint8Array;
  updated_by_user_id: string | null;
  updated_at: Timestamp;
}

export interface WorkspaceLogosTables {
  workspace_logos: WorkspaceLogosTable;
}
