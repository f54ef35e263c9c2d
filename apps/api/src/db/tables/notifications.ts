import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

/** One (project or task budget, period, threshold) crossed: recorded once, which sends the alert once. */
export interface BudgetAlertsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  task_id: string | null;
  /** 'YYYY-MM' for a budget that resets monthly, 'total' otherwise. */
  period: string;
  threshold: number;
  used: number;
  budget: number;
  created_at: Generated<Date>;
}

/** An in-app notification of one member. */
export interface NotificationsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: Date | null;
  created_at: Timestamp;
}

/** A member's choice for one kind of notification; no row means both on. */
export interface NotificationSettingsTable {
  workspace_id: string;
  user_id: string;
  kind: string;
  in_app: boolean;
  email: boolean;
  updated_at: Generated<Date>;
}

export interface NotificationsTables {
  budget_alerts: BudgetAlertsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
}

export type NotificationRow = Selectable<NotificationsTable>;
