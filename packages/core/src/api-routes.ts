import type { z } from 'zod';
import { agentReleaseView } from './activity/agent.js';
import {
  activityCategoryBody,
  activityCategoryListView,
  activityCategoryView,
  updateActivityCategoryBody,
} from './activity/categories.js';
import { type CustomRoleView, customRoleAssignmentBody, customRoleBody, customRoleView } from './custom-roles.js';
import {
  apiKeyListView,
  createApiKeyBody,
  createdApiKeyView,
  createdWorkspaceApiKeyView,
  createWorkspaceApiKeyBody,
  workspaceApiKeyListView,
} from './schemas/api-keys.js';
import {
  type ApprovalView,
  approvalSettingsBody,
  approvalSettingsView,
  approvalView,
  approveBody,
  periodStateView,
  rejectBody,
  submitApprovalBody,
} from './schemas/approvals.js';
import { auditLogPage, auditSettingsBody, auditSettingsView, auditVerifyView } from './schemas/audit-log.js';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  resetPasswordBody,
  signupBody,
  verifyEmailBody,
} from './schemas/auth.js';
import { billingDetailsSchema } from './schemas/billing.js';
import {
  calendarEventEntryBody,
  calendarEventListView,
  calendarFeedBody,
  calendarFeedView,
  calendarRuleBody,
  calendarRuleListView,
  calendarRuleView,
  calendarSubscriptionListView,
  calendarSubscriptionView,
  createCalendarSubscriptionBody,
  createdCalendarFeedView,
} from './schemas/calendars.js';
import {
  clientInvoiceListView,
  clientInvoicePreviewView,
  clientInvoiceSettingsBody,
  clientInvoiceSettingsView,
  clientInvoiceView,
  createClientInvoiceBody,
  markClientInvoicePaidBody,
  previewClientInvoiceBody,
  sendClientInvoiceBody,
  updateClientInvoiceBody,
} from './schemas/client-invoices.js';
import {
  activityDayListView,
  activitySpanListView,
  approveDeviceCodeBody,
  awayActivitiesBody,
  awayActivityListView,
  awayPeriodListView,
  computerTimeSettingsBody,
  computerTimeSettingsView,
  deletedActivityView,
  denyDeviceCodeBody,
  deviceCodeLookupView,
  deviceListView,
  resolveAwayBody,
  resolvedAwayView,
} from './schemas/computer-time.js';
import {
  computerTimeGroupSettingsBody,
  computerTimeGroupSettingsListView,
  computerTimeGroupSettingsView,
} from './schemas/computer-time-groups.js';
import { createExportJobBody, exportJobList, exportJobView } from './schemas/export-jobs.js';
import { importRunBody, importView } from './schemas/imports.js';
import {
  notificationListView,
  notificationSettingsView,
  updateNotificationSettingsBody,
} from './schemas/notifications.js';
import type { PageView } from './schemas/page.js';
import { cardTokenBody, cardTokenView } from './schemas/payments.js';
import { createWorkspaceBody, profileUpdateBody, updateWorkspaceBody } from './schemas/profile.js';
import {
  assignableView,
  type ClientView,
  clientView,
  type ProjectListItemView,
  type ProjectSuggestionView,
  projectDetailView,
  projectPickerView,
  type TagListView,
  type TaskView,
  tagDetailView,
  tagListView,
  tagSettingsView,
  tagView,
  taskDetailView,
} from './schemas/project-views.js';
import {
  clientCreateBody,
  clientUpdateBody,
  membersBody,
  projectCreateBody,
  projectPeopleBody,
  projectUpdateBody,
  tagCreateBody,
  tagListCreateBody,
  tagListUpdateBody,
  tagMergeBody,
  tagSettingsBody,
  tagUpdateBody,
  taskCreateBody,
  taskUpdateBody,
} from './schemas/projects.js';
import {
  createRateBody,
  rateHistoryView,
  rateSettingsView,
  rateView,
  reapplyPreviewView,
  reapplyRatesBody,
  reapplyResultView,
  updateRateSettingsBody,
} from './schemas/rates.js';
import { reportScheduleBody, reportScheduleEnvelope, reportScheduleView } from './schemas/report-schedules.js';
import {
  detailedReportView,
  estimatesReportView,
  markInvoicedBody,
  markInvoicedView,
  matrixReportView,
  summaryReportView,
} from './schemas/reports.js';
import {
  createdReportCsvLinkView,
  createdReportLinkView,
  createReportCsvLinkBody,
  createReportLinkBody,
  createSavedReportBody,
  reportCsvLinkStateView,
  reportLinkListView,
  reportLinkView,
  savedReportListView,
  savedReportView,
  sharedReportView,
  updateSavedReportBody,
} from './schemas/saved-reports.js';
import { meView, workspaceDetailView, workspaceView } from './schemas/session.js';
import { linkedIdentitiesView, ssoLinkBody, ssoStartBody, workspaceSsoBody, workspaceSsoView } from './schemas/sso.js';
import {
  billingDetailsView,
  billingQuoteView,
  billingView,
  cardChangeView,
  checkoutBody,
  checkoutView,
  invoiceListView,
  paymentMethodBody,
  quoteBody,
} from './schemas/subscription.js';
import { projectRequiredTagListsBody, projectRequiredTagListsView, tagListRulesBody } from './schemas/tag-rules.js';
import {
  acceptInviteBody,
  bulkMembersBody,
  createGroupBody,
  inviteBody,
  memberUpdateBody,
  teamSettingsBody,
  transferOwnershipBody,
  updateGroupBody,
} from './schemas/team.js';
import {
  acceptedInviteView,
  type GroupView,
  groupView,
  type InviteView,
  invitePreviewView,
  inviteView,
  type MemberView,
  memberView,
  type TimesheetPersonView,
  teamSettingsView,
} from './schemas/team-views.js';
import {
  bulkDeleteTimeEntriesBody,
  bulkUpdateTimeEntriesBody,
  createTimeEntryBody,
  type RunningTimerView,
  startTimerBody,
  type TimeEntryView,
  timeEntryView,
  timeSettingsView,
  updateTimeEntryBody,
  updateTimeSettingsBody,
} from './schemas/time-entries.js';
import {
  enableTwoFactorBody,
  loginSecondStepBody,
  recoveryCodesView,
  secondFactorBody,
  sessionsView,
  twoFactorPolicyBody,
  twoFactorPolicyView,
  twoFactorSetupView,
  twoFactorStatusView,
} from './schemas/two-factor.js';
import {
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveryPage,
  webhookDeliveryView,
  webhookEventListView,
  webhookListView,
  webhookSecretView,
  webhookView,
  webhookWithSecretView,
} from './schemas/webhooks.js';

/**
 * The API's routes the web calls, each with what it takes and what it answers: the body as the
 * API's own request schema and the answer as its response schema (or, where the API declares the
 * answer in its route, that answer's type). The web's client (apps/web/src/api/client.ts) takes
 * a key of this table, so a misspelt or renamed route, a wrong body or a wrong answer fails the
 * type check; apps/api/src/api-routes.test.ts checks that the API registers every route here with
 * the same body. Keys are `METHOD /path` under /api/v1, with the API's own `:param` names.
 */

/** What a route answers when the API declares its answer in place, not as a core schema: its type. */
export interface Answer<T> {
  readonly answer?: T;
}
/** What a route takes when the API declares its body in place: its type. */
export interface Body<T> {
  readonly body?: T;
}
const answer = <T>(): Answer<T> => ({});
const body = <T>(): Body<T> => ({});
/** A file the API streams (an export, a PDF): the web downloads it instead of reading JSON. */
const file = answer<Blob>();
/** A stream of server-sent events (text/event-stream): the web reads it with an EventSource. */
const events = answer<string>();

/** What the table says of a route. */
export interface RouteSpec {
  body?: z.ZodType | Body<unknown>;
  answer?: z.ZodType | Answer<unknown>;
}

export const apiRoutes = {
  'POST /auth/email/verify': { body: verifyEmailBody, answer: answer<{ message: string }>() },
  // Signed in, or (2FA) the challenge of the second step; perhaps limited to enrolment.
  'POST /auth/login': {
    body: loginBody,
    answer: answer<{
      user?: unknown;
      twoFactor?: { challenge: string; expiresAt: string };
      twoFactorEnrolmentRequired?: boolean;
    }>(),
  },
  'POST /auth/login/two-factor': { body: loginSecondStepBody, answer: answer<unknown>() },
  'POST /auth/logout': {},
  'GET /auth/oidc/providers': { answer: answer<{ items: { id: string; name: string }[] }>() },
  'POST /auth/password/forgot': { body: forgotPasswordBody, answer: answer<{ message: string }>() },
  'POST /auth/password/reset': { body: resetPasswordBody, answer: answer<{ message: string }>() },
  'GET /auth/password/reset/:token': { answer: answer<{ valid: true }>() },
  'POST /auth/signup': { body: signupBody, answer: answer<unknown>() },
  'GET /auth/sso/link': { answer: answer<{ email: string; provider: string }>() },
  'POST /auth/sso/link': { body: ssoLinkBody, answer: answer<{ returnTo: string }>() },
  'POST /auth/sso/start': { body: ssoStartBody, answer: answer<{ url: string }>() },
  'GET /agent/release': { answer: agentReleaseView },
  'GET /invites/:token': { answer: invitePreviewView },
  'POST /invites/:token/accept': { body: acceptInviteBody, answer: acceptedInviteView },
  'GET /me': { answer: meView },
  'PATCH /me': { body: profileUpdateBody, answer: meView },
  'POST /me/email/verification': { answer: answer<{ message: string }>() },
  'GET /me/api-keys': { answer: apiKeyListView },
  'POST /me/api-keys': { body: createApiKeyBody, answer: createdApiKeyView },
  'DELETE /me/api-keys/:keyId': {},
  'GET /me/devices': { answer: deviceListView },
  'DELETE /me/devices/:deviceId': {},
  'GET /agent/device-codes/:userCode': { answer: deviceCodeLookupView },
  'POST /agent/device-codes/approve': { body: approveDeviceCodeBody },
  'POST /agent/device-codes/deny': { body: denyDeviceCodeBody },
  'GET /me/identities': { answer: linkedIdentitiesView },
  'DELETE /me/identities/:identityId': {},
  'POST /me/password': { body: changePasswordBody },
  'GET /me/sessions': { answer: sessionsView },
  'DELETE /me/sessions/:sessionId': {},
  'POST /me/sessions/sign-out-others': {},
  'GET /me/two-factor': { answer: twoFactorStatusView },
  'POST /me/two-factor/disable': { body: secondFactorBody },
  'POST /me/two-factor/enable': { body: enableTwoFactorBody, answer: recoveryCodesView },
  'POST /me/two-factor/recovery-codes': { body: secondFactorBody, answer: recoveryCodesView },
  'POST /me/two-factor/setup': { answer: twoFactorSetupView },
  'POST /payments/sandbox/tokens': { body: cardTokenBody, answer: cardTokenView },
  'GET /shared-reports/:linkId': { answer: sharedReportView },
  'POST /workspaces': { body: createWorkspaceBody, answer: workspaceView },
  'GET /workspaces/:workspaceId': { answer: workspaceDetailView },
  'GET /workspaces/:workspaceId/api-keys': { answer: workspaceApiKeyListView },
  'POST /workspaces/:workspaceId/api-keys': { body: createWorkspaceApiKeyBody, answer: createdWorkspaceApiKeyView },
  'DELETE /workspaces/:workspaceId/api-keys/:keyId': {},
  'GET /workspaces/:workspaceId/audit-log': { answer: auditLogPage },
  'POST /workspaces/:workspaceId/audit-log/verify': { answer: auditVerifyView },
  'GET /workspaces/:workspaceId/audit-log/settings': { answer: auditSettingsView },
  'PUT /workspaces/:workspaceId/audit-log/settings': { body: auditSettingsBody, answer: auditSettingsView },
  'GET /workspaces/:workspaceId/webhook-events': { answer: webhookEventListView },
  'GET /workspaces/:workspaceId/webhooks': { answer: webhookListView },
  'POST /workspaces/:workspaceId/webhooks': { body: createWebhookBody, answer: webhookWithSecretView },
  'GET /workspaces/:workspaceId/webhooks/:webhookId': { answer: webhookView },
  'PATCH /workspaces/:workspaceId/webhooks/:webhookId': { body: updateWebhookBody, answer: webhookView },
  'DELETE /workspaces/:workspaceId/webhooks/:webhookId': {},
  'POST /workspaces/:workspaceId/webhooks/:webhookId/validate': { answer: webhookView },
  'GET /workspaces/:workspaceId/webhooks/:webhookId/secret': { answer: webhookSecretView },
  'POST /workspaces/:workspaceId/webhooks/:webhookId/secret/rotate': { answer: webhookSecretView },
  'GET /workspaces/:workspaceId/webhooks/:webhookId/deliveries': { answer: webhookDeliveryPage },
  'POST /workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': {
    answer: webhookDeliveryView,
  },
  'PATCH /workspaces/:workspaceId': { body: updateWorkspaceBody, answer: workspaceDetailView },
  'GET /workspaces/:workspaceId/approvals': { answer: answer<{ items: ApprovalView[] }>() },
  'POST /workspaces/:workspaceId/approvals': { body: submitApprovalBody, answer: approvalView },
  'POST /workspaces/:workspaceId/approvals/:approvalId/approve': { body: approveBody, answer: approvalView },
  'POST /workspaces/:workspaceId/approvals/:approvalId/reject': { body: rejectBody, answer: approvalView },
  'POST /workspaces/:workspaceId/approvals/:approvalId/withdraw': { answer: approvalView },
  'GET /workspaces/:workspaceId/approvals/period': { answer: periodStateView },
  'GET /workspaces/:workspaceId/approvals/settings': { answer: approvalSettingsView },
  'PUT /workspaces/:workspaceId/approvals/settings': { body: approvalSettingsBody, answer: approvalSettingsView },
  'GET /workspaces/:workspaceId/calendar-feed': { answer: calendarFeedView },
  'POST /workspaces/:workspaceId/calendar-feed': { body: calendarFeedBody, answer: createdCalendarFeedView },
  'PATCH /workspaces/:workspaceId/calendar-feed': { body: calendarFeedBody, answer: calendarFeedView },
  'DELETE /workspaces/:workspaceId/calendar-feed': {},
  'GET /workspaces/:workspaceId/computer-time/settings': { answer: computerTimeSettingsView },
  'PUT /workspaces/:workspaceId/computer-time/settings': {
    body: computerTimeSettingsBody,
    answer: computerTimeSettingsView,
  },
  'GET /workspaces/:workspaceId/computer-time/group-settings': { answer: computerTimeGroupSettingsListView },
  'PUT /workspaces/:workspaceId/computer-time/group-settings/:groupId': {
    body: computerTimeGroupSettingsBody,
    answer: computerTimeGroupSettingsView,
  },
  'GET /workspaces/:workspaceId/computer-time/spans': { answer: activitySpanListView },
  'DELETE /workspaces/:workspaceId/computer-time/spans': { answer: deletedActivityView },
  'GET /workspaces/:workspaceId/computer-time/activities': { answer: activityDayListView },
  'GET /workspaces/:workspaceId/computer-time/categories': { answer: activityCategoryListView },
  'GET /workspaces/:workspaceId/computer-time/away-activities': { answer: awayActivityListView },
  'PUT /workspaces/:workspaceId/computer-time/away-activities': {
    body: awayActivitiesBody,
    answer: awayActivityListView,
  },
  'GET /workspaces/:workspaceId/computer-time/away': { answer: awayPeriodListView },
  'POST /workspaces/:workspaceId/computer-time/away/resolve': { body: resolveAwayBody, answer: resolvedAwayView },
  'DELETE /workspaces/:workspaceId/computer-time/away/resolutions': {},
  'POST /workspaces/:workspaceId/computer-time/categories': {
    body: activityCategoryBody,
    answer: activityCategoryView,
  },
  'PATCH /workspaces/:workspaceId/computer-time/categories/:categoryId': {
    body: updateActivityCategoryBody,
    answer: activityCategoryView,
  },
  'DELETE /workspaces/:workspaceId/computer-time/categories/:categoryId': {},
  'GET /workspaces/:workspaceId/calendar-subscriptions': { answer: calendarSubscriptionListView },
  'POST /workspaces/:workspaceId/calendar-subscriptions': {
    body: createCalendarSubscriptionBody,
    answer: calendarSubscriptionView,
  },
  'DELETE /workspaces/:workspaceId/calendar-subscriptions/:subscriptionId': {},
  'POST /workspaces/:workspaceId/calendar-subscriptions/:subscriptionId/refresh': { answer: calendarSubscriptionView },
  'GET /workspaces/:workspaceId/calendar-events': { answer: calendarEventListView },
  'POST /workspaces/:workspaceId/calendar-events/:eventId/entry': {
    body: calendarEventEntryBody,
    answer: timeEntryView,
  },
  'GET /workspaces/:workspaceId/calendar-rules': { answer: calendarRuleListView },
  'POST /workspaces/:workspaceId/calendar-rules': { body: calendarRuleBody, answer: calendarRuleView },
  'DELETE /workspaces/:workspaceId/calendar-rules/:ruleId': {},
  'GET /workspaces/:workspaceId/billing': { answer: billingView },
  'POST /workspaces/:workspaceId/billing/cancel': { answer: billingView },
  'POST /workspaces/:workspaceId/billing/change-to-free': { answer: billingView },
  'POST /workspaces/:workspaceId/billing/checkout': { body: checkoutBody, answer: checkoutView },
  'POST /workspaces/:workspaceId/billing/checkout/:checkoutId/confirm': { answer: checkoutView },
  'PUT /workspaces/:workspaceId/billing/details': { body: billingDetailsSchema, answer: billingDetailsView },
  'GET /workspaces/:workspaceId/billing/invoices/:invoiceId/pdf': { answer: file },
  'GET /workspaces/:workspaceId/billing/invoices': { answer: invoiceListView },
  'PUT /workspaces/:workspaceId/billing/payment-method': { body: paymentMethodBody, answer: cardChangeView },
  'POST /workspaces/:workspaceId/billing/payment-method/:changeId/confirm': { answer: cardChangeView },
  'POST /workspaces/:workspaceId/billing/quote': { body: quoteBody, answer: billingQuoteView },
  'POST /workspaces/:workspaceId/billing/reactivate': { answer: billingView },
  'GET /workspaces/:workspaceId/client-invoice-settings': { answer: clientInvoiceSettingsView },
  'PUT /workspaces/:workspaceId/client-invoice-settings': {
    body: clientInvoiceSettingsBody,
    answer: clientInvoiceSettingsView,
  },
  'GET /workspaces/:workspaceId/client-invoices': { answer: clientInvoiceListView },
  'POST /workspaces/:workspaceId/client-invoices': { body: createClientInvoiceBody, answer: clientInvoiceView },
  'DELETE /workspaces/:workspaceId/client-invoices/:invoiceId': {},
  'GET /workspaces/:workspaceId/client-invoices/:invoiceId': { answer: clientInvoiceView },
  'PATCH /workspaces/:workspaceId/client-invoices/:invoiceId': {
    body: updateClientInvoiceBody,
    answer: clientInvoiceView,
  },
  'POST /workspaces/:workspaceId/client-invoices/:invoiceId/issue': { answer: clientInvoiceView },
  'POST /workspaces/:workspaceId/client-invoices/:invoiceId/mark-paid': {
    body: markClientInvoicePaidBody,
    answer: clientInvoiceView,
  },
  'POST /workspaces/:workspaceId/client-invoices/:invoiceId/mark-sent': { answer: clientInvoiceView },
  'GET /workspaces/:workspaceId/client-invoices/:invoiceId/pdf': { answer: file },
  'POST /workspaces/:workspaceId/client-invoices/:invoiceId/send': {
    body: sendClientInvoiceBody,
    answer: clientInvoiceView,
  },
  'POST /workspaces/:workspaceId/client-invoices/:invoiceId/void': { answer: clientInvoiceView },
  'POST /workspaces/:workspaceId/client-invoices/preview': {
    body: previewClientInvoiceBody,
    answer: clientInvoicePreviewView,
  },
  'GET /workspaces/:workspaceId/clients': { answer: answer<PageView<ClientView>>() },
  'POST /workspaces/:workspaceId/clients': { body: clientCreateBody, answer: clientView },
  'DELETE /workspaces/:workspaceId/clients/:clientId': {},
  'PATCH /workspaces/:workspaceId/clients/:clientId': { body: clientUpdateBody, answer: clientView },
  'POST /workspaces/:workspaceId/clients/:clientId/archive': { answer: clientView },
  'POST /workspaces/:workspaceId/clients/:clientId/restore': { answer: clientView },
  'GET /workspaces/:workspaceId/groups': { answer: answer<{ items: GroupView[] }>() },
  'POST /workspaces/:workspaceId/groups': { body: createGroupBody, answer: groupView },
  'DELETE /workspaces/:workspaceId/groups/:groupId': {},
  'PATCH /workspaces/:workspaceId/groups/:groupId': { body: updateGroupBody, answer: groupView },
  'PUT /workspaces/:workspaceId/groups/:groupId/custom-role': { body: customRoleAssignmentBody },
  'DELETE /workspaces/:workspaceId/groups/:groupId/members/:userId': { answer: groupView },
  'PUT /workspaces/:workspaceId/groups/:groupId/members/:userId': { answer: groupView },
  'POST /workspaces/:workspaceId/imports': { answer: importView },
  'GET /workspaces/:workspaceId/imports/:importId': { answer: importView },
  'POST /workspaces/:workspaceId/imports/:importId/run': { body: importRunBody, answer: importView },
  'GET /workspaces/:workspaceId/invites': { answer: answer<{ items: InviteView[] }>() },
  'POST /workspaces/:workspaceId/invites': { body: inviteBody, answer: answer<{ items: InviteView[] }>() },
  'DELETE /workspaces/:workspaceId/invites/:inviteId': {},
  'POST /workspaces/:workspaceId/invites/:inviteId/link': { answer: answer<{ url: string; invite: InviteView }>() },
  'POST /workspaces/:workspaceId/invites/:inviteId/resend': { answer: inviteView },
  'DELETE /workspaces/:workspaceId/logo': {},
  'PUT /workspaces/:workspaceId/logo': {
    body: body<{ data: string }>(),
    answer: answer<{ contentType: string; width: number; height: number }>(),
  },
  'GET /workspaces/:workspaceId/members': { answer: answer<PageView<MemberView>>() },
  'DELETE /workspaces/:workspaceId/members/:userId': {},
  'PATCH /workspaces/:workspaceId/members/:userId': { body: memberUpdateBody, answer: memberView },
  'PUT /workspaces/:workspaceId/members/:userId/custom-role': { body: customRoleAssignmentBody },
  'POST /workspaces/:workspaceId/members/:userId/two-factor/reset': {},
  'POST /workspaces/:workspaceId/members/bulk': { body: bulkMembersBody, answer: answer<{ items: MemberView[] }>() },
  'GET /workspaces/:workspaceId/notifications': { answer: notificationListView },
  'POST /workspaces/:workspaceId/notifications/:notificationId/read': {},
  'POST /workspaces/:workspaceId/notifications/read': {},
  'GET /workspaces/:workspaceId/notifications/settings': { answer: notificationSettingsView },
  'PUT /workspaces/:workspaceId/notifications/settings': {
    body: updateNotificationSettingsBody,
    answer: notificationSettingsView,
  },
  'POST /workspaces/:workspaceId/owner': { body: transferOwnershipBody, answer: memberView },
  'GET /workspaces/:workspaceId/project-assignees': { answer: assignableView },
  'GET /workspaces/:workspaceId/project-picker': { answer: projectPickerView },
  'GET /workspaces/:workspaceId/project-suggestions': { answer: answer<{ items: ProjectSuggestionView[] }>() },
  'GET /workspaces/:workspaceId/projects': { answer: answer<PageView<ProjectListItemView>>() },
  'POST /workspaces/:workspaceId/projects': { body: projectCreateBody, answer: projectDetailView },
  'DELETE /workspaces/:workspaceId/projects/:projectId': {},
  'GET /workspaces/:workspaceId/projects/:projectId': { answer: projectDetailView },
  'PATCH /workspaces/:workspaceId/projects/:projectId': { body: projectUpdateBody, answer: projectDetailView },
  'POST /workspaces/:workspaceId/projects/:projectId/archive': { answer: projectDetailView },
  'PUT /workspaces/:workspaceId/projects/:projectId/people': { body: projectPeopleBody, answer: projectDetailView },
  'PUT /workspaces/:workspaceId/projects/:projectId/required-tag-lists': {
    body: projectRequiredTagListsBody,
    answer: projectRequiredTagListsView,
  },
  'POST /workspaces/:workspaceId/projects/:projectId/restore': { answer: projectDetailView },
  'GET /workspaces/:workspaceId/projects/:projectId/tasks': { answer: answer<{ items: TaskView[] }>() },
  'POST /workspaces/:workspaceId/projects/:projectId/tasks': { body: taskCreateBody, answer: taskDetailView },
  'GET /workspaces/:workspaceId/rates': { answer: rateHistoryView },
  'POST /workspaces/:workspaceId/rates': { body: createRateBody, answer: rateView },
  'DELETE /workspaces/:workspaceId/rates/:rateId': {},
  'POST /workspaces/:workspaceId/rates/reapply': { body: reapplyRatesBody, answer: reapplyResultView },
  'POST /workspaces/:workspaceId/rates/reapply/preview': { body: reapplyRatesBody, answer: reapplyPreviewView },
  'GET /workspaces/:workspaceId/rates/settings': { answer: rateSettingsView },
  'PATCH /workspaces/:workspaceId/rates/settings': { body: updateRateSettingsBody, answer: rateSettingsView },
  'GET /workspaces/:workspaceId/reports/detailed': { answer: detailedReportView },
  'GET /workspaces/:workspaceId/reports/estimates': { answer: estimatesReportView },
  'GET /workspaces/:workspaceId/reports/export': { answer: file },
  'GET /workspaces/:workspaceId/reports/export-jobs': { answer: exportJobList },
  'POST /workspaces/:workspaceId/reports/export-jobs': { body: createExportJobBody, answer: exportJobView },
  'GET /workspaces/:workspaceId/reports/export-jobs/:jobId': { answer: exportJobView },
  'GET /workspaces/:workspaceId/reports/export-jobs/:jobId/file': { answer: file },
  'POST /workspaces/:workspaceId/reports/invoiced': { body: markInvoicedBody, answer: markInvoicedView },
  'GET /workspaces/:workspaceId/reports/matrix': { answer: matrixReportView },
  'GET /workspaces/:workspaceId/reports/summary': { answer: summaryReportView },
  'GET /workspaces/:workspaceId/roles': { answer: answer<{ items: CustomRoleView[] }>() },
  'POST /workspaces/:workspaceId/roles': { body: customRoleBody, answer: customRoleView },
  'DELETE /workspaces/:workspaceId/roles/:roleId': {},
  'PUT /workspaces/:workspaceId/roles/:roleId': { body: customRoleBody, answer: customRoleView },
  'GET /workspaces/:workspaceId/saved-reports': { answer: savedReportListView },
  'POST /workspaces/:workspaceId/saved-reports': { body: createSavedReportBody, answer: savedReportView },
  'DELETE /workspaces/:workspaceId/saved-reports/:savedReportId': {},
  'PATCH /workspaces/:workspaceId/saved-reports/:savedReportId': {
    body: updateSavedReportBody,
    answer: savedReportView,
  },
  'GET /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link': { answer: reportCsvLinkStateView },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link': {
    body: createReportCsvLinkBody,
    answer: createdReportCsvLinkView,
  },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link/revoke': { answer: reportCsvLinkStateView },
  'GET /workspaces/:workspaceId/saved-reports/:savedReportId/links': { answer: reportLinkListView },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/links': {
    body: createReportLinkBody,
    answer: createdReportLinkView,
  },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/links/:linkId/revoke': { answer: reportLinkView },
  'DELETE /workspaces/:workspaceId/saved-reports/:savedReportId/schedule': {},
  'GET /workspaces/:workspaceId/saved-reports/:savedReportId/schedule': { answer: reportScheduleEnvelope },
  'PUT /workspaces/:workspaceId/saved-reports/:savedReportId/schedule': {
    body: reportScheduleBody,
    answer: reportScheduleView,
  },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/schedule/pause': { answer: reportScheduleView },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/schedule/resume': { answer: reportScheduleView },
  'POST /workspaces/:workspaceId/saved-reports/:savedReportId/schedule/send': {},
  'DELETE /workspaces/:workspaceId/scim-token': {},
  'GET /workspaces/:workspaceId/scim-token': {
    answer: answer<{ active: boolean; createdAt: string | null; lastUsedAt: string | null; baseUrl: string }>(),
  },
  'POST /workspaces/:workspaceId/scim-token': { answer: answer<{ token: string; baseUrl: string }>() },
  'GET /workspaces/:workspaceId/sso': { answer: workspaceSsoView },
  'PUT /workspaces/:workspaceId/sso': { body: workspaceSsoBody, answer: workspaceSsoView },
  'POST /workspaces/:workspaceId/sso/domains': { body: body<{ domain: string }>(), answer: workspaceSsoView },
  'DELETE /workspaces/:workspaceId/sso/domains/:domain': {},
  'POST /workspaces/:workspaceId/sso/domains/:domain/verify': { answer: workspaceSsoView },
  'GET /workspaces/:workspaceId/tag-lists': { answer: answer<{ items: TagListView[]; total: number }>() },
  'POST /workspaces/:workspaceId/tag-lists': { body: tagListCreateBody, answer: tagListView },
  'DELETE /workspaces/:workspaceId/tag-lists/:tagListId': {},
  'PATCH /workspaces/:workspaceId/tag-lists/:tagListId': { body: tagListUpdateBody, answer: tagListView },
  'POST /workspaces/:workspaceId/tag-lists/:tagListId/archive': { answer: tagListView },
  'POST /workspaces/:workspaceId/tag-lists/:tagListId/restore': { answer: tagListView },
  'PUT /workspaces/:workspaceId/tag-lists/:tagListId/rules': { body: tagListRulesBody, answer: tagListView },
  'POST /workspaces/:workspaceId/tag-lists/:tagListId/tags': { body: tagCreateBody, answer: tagView },
  'GET /workspaces/:workspaceId/tag-settings': { answer: tagSettingsView },
  'PUT /workspaces/:workspaceId/tag-settings': { body: tagSettingsBody, answer: tagSettingsView },
  'DELETE /workspaces/:workspaceId/tags/:tagId': {},
  'GET /workspaces/:workspaceId/tags/:tagId': { answer: tagDetailView },
  'PATCH /workspaces/:workspaceId/tags/:tagId': { body: tagUpdateBody, answer: tagView },
  'POST /workspaces/:workspaceId/tags/:tagId/archive': { answer: tagView },
  'POST /workspaces/:workspaceId/tags/:tagId/merge': { body: tagMergeBody, answer: tagView },
  'POST /workspaces/:workspaceId/tags/:tagId/restore': { answer: tagView },
  'DELETE /workspaces/:workspaceId/tasks/:taskId': {},
  'GET /workspaces/:workspaceId/tasks/:taskId': { answer: taskDetailView },
  'PATCH /workspaces/:workspaceId/tasks/:taskId': { body: taskUpdateBody, answer: taskDetailView },
  'POST /workspaces/:workspaceId/tasks/:taskId/archive': { answer: taskDetailView },
  'PUT /workspaces/:workspaceId/tasks/:taskId/people': { body: membersBody, answer: taskDetailView },
  'POST /workspaces/:workspaceId/tasks/:taskId/restore': { answer: taskDetailView },
  'GET /workspaces/:workspaceId/team-settings': { answer: teamSettingsView },
  'PATCH /workspaces/:workspaceId/team-settings': { body: teamSettingsBody, answer: teamSettingsView },
  'GET /workspaces/:workspaceId/time-entries': { answer: answer<{ items: TimeEntryView[] }>() },
  'POST /workspaces/:workspaceId/time-entries': { body: createTimeEntryBody, answer: timeEntryView },
  'DELETE /workspaces/:workspaceId/time-entries/:entryId': {},
  'PATCH /workspaces/:workspaceId/time-entries/:entryId': { body: updateTimeEntryBody, answer: timeEntryView },
  'POST /workspaces/:workspaceId/time-entries/bulk-delete': { body: bulkDeleteTimeEntriesBody },
  'POST /workspaces/:workspaceId/time-entries/bulk-update': {
    body: bulkUpdateTimeEntriesBody,
    answer: answer<{ items: TimeEntryView[] }>(),
  },
  'GET /workspaces/:workspaceId/time-entries/events': { answer: events },
  'GET /workspaces/:workspaceId/time-entries/people': { answer: answer<{ items: TimesheetPersonView[] }>() },
  'POST /workspaces/:workspaceId/time-entries/restore': {
    body: bulkDeleteTimeEntriesBody,
    answer: answer<{ items: TimeEntryView[] }>(),
  },
  'GET /workspaces/:workspaceId/time-settings': { answer: timeSettingsView },
  'PATCH /workspaces/:workspaceId/time-settings': { body: updateTimeSettingsBody, answer: timeSettingsView },
  'DELETE /workspaces/:workspaceId/timer': {},
  'GET /workspaces/:workspaceId/timer': { answer: answer<{ entry: TimeEntryView | null }>() },
  'POST /workspaces/:workspaceId/timer/pause': { answer: timeEntryView },
  'POST /workspaces/:workspaceId/timer/resume': { answer: timeEntryView },
  'POST /workspaces/:workspaceId/timer/start': { body: startTimerBody },
  'POST /workspaces/:workspaceId/timer/stop': { answer: timeEntryView },
  'GET /workspaces/:workspaceId/timers': { answer: answer<{ items: RunningTimerView[] }>() },
  'GET /workspaces/:workspaceId/two-factor-policy': { answer: twoFactorPolicyView },
  'PUT /workspaces/:workspaceId/two-factor-policy': { body: twoFactorPolicyBody, answer: twoFactorPolicyView },
} satisfies Record<string, RouteSpec>;

export type ApiRoutes = typeof apiRoutes;
/** `METHOD /path` of a route the web may call. */
export type ApiRoute = keyof ApiRoutes;

/** What the route takes as its JSON body (`undefined` when it takes none). */
export type ApiBody<K extends ApiRoute> = ApiRoutes[K] extends { body: infer S }
  ? S extends z.ZodType
    ? z.input<S>
    : S extends Body<infer T>
      ? T
      : never
  : undefined;

/** What the route answers (`undefined` when it answers nothing the caller reads). */
export type ApiAnswer<K extends ApiRoute> = ApiRoutes[K] extends { answer: infer A }
  ? A extends z.ZodType
    ? z.output<A>
    : A extends Answer<infer T>
      ? T
      : never
  : undefined;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The names of the route's path parameters (`workspaceId`, `projectId`…). */
export type ApiParamName<K extends ApiRoute> = ParamNames<K>;
