import type { Migration } from 'kysely';
import * as m202611230100 from './202611230100_create_accounts.js';
import * as m202611230200 from './202611230200_create_demo_requests.js';
import * as m202611230300 from './202611230300_create_groups.js';
import * as m202611230400 from './202611230400_create_projects.js';
import * as m202611230500 from './202611230500_create_invites.js';
import * as m202611230600 from './202611230600_create_time_entries.js';
import * as m202611231210 from './202611231210_create_time_entry_trash.js';
import * as m202611231300 from './202611231300_project_manager_grants.js';
import * as m202611240100 from './202611240100_create_rate_limits.js';
import * as m202611240110 from './202611240110_create_known_devices.js';
import * as m202611241200 from './202611241200_add_duration_format.js';
import * as m202611250100 from './202611250100_create_jobs.js';
import * as m202611250200 from './202611250200_time_entries_task_index.js';
import * as m202611250201 from './202611250201_create_project_time_totals.js';
import * as m202611250202 from './202611250202_track_longest_entry.js';
import * as m202611250613 from './202611250613_create_imports.js';
import * as m202611260100 from './202611260100_entry_rates.js';
import * as m202611260200 from './202611260200_entry_invoiced.js';
import * as m202611260300 from './202611260300_create_rates.js';
import * as m202611270500 from './202611270500_create_saved_reports.js';
import * as m202611280100 from './202611280100_create_report_csv_links.js';
import * as m202611280200 from './202611280200_create_report_schedules.js';
import * as m202611280300 from './202611280300_create_export_jobs.js';
import * as m202611280401 from './202611280401_report_time_zone.js';
import * as m202611280402 from './202611280402_create_report_rollups.js';
import * as m202611280600 from './202611280600_create_workspace_logos.js';
import * as m202612010100 from './202612010100_create_payments.js';
import * as m202612010200 from './202612010200_create_billing.js';
import * as m202612010500 from './202612010500_rollups_rebuild_in_background.js';
import * as m202612010600 from './202612010600_billing_dunning.js';
import * as m202612010800 from './202612010800_billing_renewal_errors.js';
import * as m202612010810 from './202612010810_create_card_changes.js';
import * as m202612010900 from './202612010900_create_approvals.js';
import * as m202612010901 from './202612010901_approval_reminders.js';
import * as m202612011000 from './202612011000_create_client_invoices.js';
import * as m202612011100 from './202612011100_advanced_tags.js';
import * as m202612011110 from './202612011110_budget_alerts.js';
import * as m202612011200 from './202612011200_create_two_factor.js';
import * as m202612011300 from './202612011300_create_sso.js';
import * as m202612011400 from './202612011400_create_custom_roles.js';
import * as m202612011401 from './202612011401_create_scim_tokens.js';
import * as m202612030200 from './202612030200_create_workspace_email_domains.js';
import * as m202612030400 from './202612030400_guard_issued_invoices.js';
import * as m202612030500 from './202612030500_add_budget_alert_thresholds.js';
import * as m202612040200 from './202612040200_create_coarse_report_rollups.js';
import * as m202612040210 from './202612040210_rollups_refresh_without_jit.js';
import * as m202612050100 from './202612050100_create_work_rollups.js';
import * as m202612060100 from './202612060100_scim_consent.js';
import * as m202612060200 from './202612060200_prove_sso_domains_by_dns.js';
import * as m202612060300 from './202612060300_verify_email_addresses.js';
import * as m202612060400 from './202612060400_one_open_checkout.js';
import * as m202612060600 from './202612060600_create_two_factor_devices.js';
import * as m202612060700 from './202612060700_audit_log_personal_use.js';
import * as m202612060701 from './202612060701_create_notification_settings.js';
import * as m202612060719 from './202612060719_client_invoice_figures.js';
import * as m202612070100 from './202612070100_rollups_pending_days.js';
import * as m202612080100 from './202612080100_create_api_keys.js';
import * as m202612080200 from './202612080200_chain_audit_log.js';
import * as m202612080300 from './202612080300_create_webhooks.js';
import * as m202612090200 from './202612090200_create_calendar_feeds.js';
import * as m202612090201 from './202612090201_create_calendar_subscriptions.js';
import * as m202612090300 from './202612090300_audit_context_and_retention.js';
import * as m202612090301 from './202612090301_workspace_api_keys.js';
import * as m202612100000 from './202612100000_webhook_delivery_schedule.js';
import * as m202612100001 from './202612100001_export_files_gzip.js';
import * as m202612100100 from './202612100100_create_computer_time.js';
import * as m202612100101 from './202612100101_activity_categories.js';
import * as m202612110100 from './202612110100_computer_time_group_settings.js';
import * as m202612110200 from './202612110200_activity_spans_without_start_index.js';
import * as m202612110201 from './202612110201_activity_spans_one_reference.js';
import * as m202612110300 from './202612110300_activity_daily_sites.js';
import * as m202612110400 from './202612110400_away_time.js';
import * as m202612110500 from './202612110500_create_attendance.js';

/** Every migration, by name; names sort in the order they run. Never edit one that has landed. */
export const migrations: Record<string, Migration> = {
  '202611230100_create_accounts': m202611230100,
  '202611230200_create_demo_requests': m202611230200,
  '202611230300_create_groups': m202611230300,
  '202611230400_create_projects': m202611230400,
  '202611230500_create_invites': m202611230500,
  '202611230600_create_time_entries': m202611230600,
  '202611231210_create_time_entry_trash': m202611231210,
  '202611231300_project_manager_grants': m202611231300,
  '202611240100_create_rate_limits': m202611240100,
  '202611240110_create_known_devices': m202611240110,
  '202611241200_add_duration_format': m202611241200,
  '202611250100_create_jobs': m202611250100,
  '202611250200_time_entries_task_index': m202611250200,
  '202611250201_create_project_time_totals': m202611250201,
  '202611250202_track_longest_entry': m202611250202,
  '202611250613_create_imports': m202611250613,
  '202611260100_entry_rates': m202611260100,
  '202611260200_entry_invoiced': m202611260200,
  '202611260300_create_rates': m202611260300,
  '202611270500_create_saved_reports': m202611270500,
  '202611280100_create_report_csv_links': m202611280100,
  '202611280200_create_report_schedules': m202611280200,
  '202611280300_create_export_jobs': m202611280300,
  '202611280401_report_time_zone': m202611280401,
  '202611280402_create_report_rollups': m202611280402,
  '202611280600_create_workspace_logos': m202611280600,
  '202612010100_create_payments': m202612010100,
  '202612010200_create_billing': m202612010200,
  '202612010500_rollups_rebuild_in_background': m202612010500,
  '202612010600_billing_dunning': m202612010600,
  '202612010800_billing_renewal_errors': m202612010800,
  '202612010810_create_card_changes': m202612010810,
  '202612010900_create_approvals': m202612010900,
  '202612010901_approval_reminders': m202612010901,
  '202612011000_create_client_invoices': m202612011000,
  '202612011100_advanced_tags': m202612011100,
  '202612011110_budget_alerts': m202612011110,
  '202612011200_create_two_factor': m202612011200,
  '202612011300_create_sso': m202612011300,
  '202612011400_create_custom_roles': m202612011400,
  '202612011401_create_scim_tokens': m202612011401,
  '202612030200_create_workspace_email_domains': m202612030200,
  '202612030400_guard_issued_invoices': m202612030400,
  '202612030500_add_budget_alert_thresholds': m202612030500,
  '202612040200_create_coarse_report_rollups': m202612040200,
  '202612040210_rollups_refresh_without_jit': m202612040210,
  '202612050100_create_work_rollups': m202612050100,
  '202612060100_scim_consent': m202612060100,
  '202612060200_prove_sso_domains_by_dns': m202612060200,
  '202612060300_verify_email_addresses': m202612060300,
  '202612060400_one_open_checkout': m202612060400,
  '202612060600_create_two_factor_devices': m202612060600,
  '202612060700_audit_log_personal_use': m202612060700,
  '202612060701_create_notification_settings': m202612060701,
  '202612060719_client_invoice_figures': m202612060719,
  '202612070100_rollups_pending_days': m202612070100,
  '202612080100_create_api_keys': m202612080100,
  '202612080200_chain_audit_log': m202612080200,
  '202612080300_create_webhooks': m202612080300,
  '202612090200_create_calendar_feeds': m202612090200,
  '202612090201_create_calendar_subscriptions': m202612090201,
  '202612090300_audit_context_and_retention': m202612090300,
  '202612090301_workspace_api_keys': m202612090301,
  '202612100000_webhook_delivery_schedule': m202612100000,
  '202612100001_export_files_gzip': m202612100001,
  '202612100100_create_computer_time': m202612100100,
  '202612100101_activity_categories': m202612100101,
  '202612110100_computer_time_group_settings': m202612110100,
  '202612110200_activity_spans_without_start_index': m202612110200,
  '202612110201_activity_spans_one_reference': m202612110201,
  '202612110300_activity_daily_sites': m202612110300,
  '202612110400_away_time': m202612110400,
  '202612110500_create_attendance': m202612110500,
};
