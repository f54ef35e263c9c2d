import type { Timestamp } from '../tables.js';

/** A domain of a workspace's "allowed e-mail domains" (lower-case); none listed: any address may join. */
export interface WorkspaceEmailDomainsTable {
  workspace_id: string;
  domain: string;
  created_at: Timestamp;
}

export interface WorkspaceEmailDomainsTables {
  workspace_email_domains: WorkspaceEmailDomainsTable;
}
