import type { MeView, Permission } from '@sundial/core';
import {
  IconChartBar,
  IconChecklist,
  IconClock,
  IconDeviceDesktopAnalytics,
  IconFileInvoice,
  IconFolder,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconShieldLock,
  IconTags,
  IconUserCheck,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/**
 * The one route table of the app. The router, the sidebar (its sections, links and the Reports and
 * Computer time menus), the phone drawer and the page titles all read it, so a new page is one
 * entry here. Paths and titles are the spec's.
 */

export type Icon = ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;
type PageModule = { default: ComponentType };

/** What a path shows: a code-split page, an honest "coming soon", or another path. */
export type RoutePage = { load: () => Promise<PageModule> } | { soon: string } | { redirect: string };

export const NAV_SECTIONS = ['TRACK', 'ANALYZE', 'MANAGE', 'TEAM'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

/** The sidebar's two entries that open a menu of pages instead of going to one. */
export const MENUS = {
  reports: { label: 'Reports', icon: IconChartBar, section: 'ANALYZE', prefix: '/homepage/reports' },
  computerTime: {
    label: 'Computer time',
    icon: IconDeviceDesktopAnalytics,
    section: 'ANALYZE',
    prefix: '/homepage/computer-time',
  },
} as const satisfies Record<string, { label: string; icon: Icon; section: NavSection; prefix: string }>;
export type MenuId = keyof typeof MENUS;

/** The Reports menu's groups, as in the spec (two BUDGETING REPORTS groups), and the reports people saved. */
export const REPORT_GROUPS = [
  'TIME REPORTS',
  'PEOPLE REPORTS',
  'BUDGETING REPORTS',
  'BUDGETING REPORTS',
  'SAVED',
] as const;

export interface AppRoute {
  /** The full path, e.g. /homepage/timesheet. */
  path: string;
  /** The page title (top bar and document title). */
  title: string;
  page: RoutePage;
  /** A link of its own in the sidebar; with `permission`, shown only to whoever has it in the workspace. */
  nav?: { section: NavSection; label: string; icon: Icon; permission?: Permission };
  /** An item of a sidebar menu; `group` indexes REPORT_GROUPS for reports. */
  menu?: { id: MenuId; group?: number };
  /** Asks for the data the page shows first, under its queries' keys (see warm-up.ts). */
  warm?: () => Promise<{ default: (queryClient: QueryClient, me: MeView) => void }>;
}

const named =
  <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  async (): Promise<PageModule> => ({ default: (await load())[name] });

const report = (title: string, slug: string, group: number, load?: () => Promise<PageModule>): AppRoute => ({
  path: `${MENUS.reports.prefix}/${slug}`,
  title,
  page: load ? { load } : { soon: `The ${title} report is being built.` },
  menu: { id: 'reports', group },
});
const reportPage = <K extends string>(name: K) =>
  named(() => import('./features/reports/pages') as Promise<Record<K, ComponentType>>, name);
const computer = (title: string, slug: string, load?: () => Promise<PageModule>): AppRoute => ({
  path: `${MENUS.computerTime.prefix}/${slug}`,
  title,
  page: load ? { load } : { soon: `${title}, fed by the desktop activity agent, is being built.` },
  menu: { id: 'computerTime' },
});

/** Pages outside the signed-in app (the landing page is prerendered; these are the app's own). */
export const PUBLIC_ROUTES: AppRoute[] = [
  { path: '/', title: 'Sundial', page: { load: named(() => import('./landing/LandingPage'), 'LandingPage') } },
  {
    path: '/signuppage',
    title: 'Sign up',
    page: { load: named(() => import('./features/auth/pages/SignupPage'), 'SignupPage') },
  },
  {
    path: '/loginpage',
    title: 'Log in',
    page: { load: named(() => import('./features/auth/pages/LoginPage'), 'LoginPage') },
  },
  {
    path: '/forgotten_password',
    title: 'Forgotten password',
    page: { load: named(() => import('./features/auth/pages/ForgotPasswordPage'), 'ForgotPasswordPage') },
  },
  {
    path: '/password',
    title: 'New password',
    page: { load: named(() => import('./features/auth/pages/NewPasswordPage'), 'NewPasswordPage') },
  },
  {
    path: '/verify-email',
    title: 'Confirm your e-mail address',
    page: { load: named(() => import('./features/auth/pages/VerifyEmailPage'), 'VerifyEmailPage') },
  },
  {
    path: '/link-account',
    title: 'Link your account',
    page: { load: named(() => import('./features/auth/pages/LinkAccountPage'), 'LinkAccountPage') },
  },
  { path: '/invite', title: 'Invitation', page: { load: () => import('./features/team/pages/AcceptInvitePage') } },
  { path: '/billing', title: 'Your subscription', page: { redirect: '/homepage/billing' } },
  /** A report shared by a public link: read-only, no sign-in; the secret is in the URL fragment. */
  {
    path: '/share/:linkId',
    title: 'Shared report',
    page: { load: () => import('./features/reports/saved/SharedReportPage') },
  },
];

/** The signed-in app's pages, under /homepage, in sidebar order. */
export const APP_ROUTES: AppRoute[] = [
  {
    path: '/homepage/timesheet',
    title: 'TimeSheet',
    page: { load: named(() => import('./features/timesheet/pages/TimesheetPage'), 'TimesheetPage') },
    warm: () => import('./features/timesheet/warm'),
    nav: { section: 'TRACK', label: 'Timesheet', icon: IconClock },
  },
  {
    path: '/homepage/dashboard',
    title: 'Dashboard',
    page: { load: named(() => import('./features/dashboard/pages/DashboardPage'), 'DashboardPage') },
    nav: { section: 'ANALYZE', label: 'Dashboard', icon: IconLayoutDashboard },
  },
  report('Summary', 'summary', 0, reportPage('SummaryPage')),
  report('Detailed', 'detailed', 0, reportPage('DetailedPage')),
  report('By days', 'by-days', 0, reportPage('ByDaysPage')),
  report('Custom', 'custom', 0, reportPage('CustomPage')),
  report('People by task', 'people-by-task', 1, reportPage('PeopleByTaskPage')),
  report('People by days and task', 'people-by-days-and-task', 1, reportPage('PeopleByDaysAndTaskPage')),
  report('People by days', 'people-by-days', 1, reportPage('PeopleByDaysPage')),
  report('People by projects', 'people-by-projects', 1, reportPage('PeopleByProjectsPage')),
  report('Billable, unbillable, invoiced', 'billable', 2, reportPage('BillablePage')),
  report('Estimates', 'estimates', 2, reportPage('EstimatesPage')),
  report('Revenues', 'revenues', 2, reportPage('RevenuesPage')),
  report('Costs', 'costs', 2, reportPage('CostsPage')),
  report('Margin', 'margin', 2, reportPage('MarginPage')),
  report(
    'Real-time dashboard',
    'real-time-dashboard',
    3,
    named(() => import('./features/dashboard/pages/RealTimeDashboardPage'), 'RealTimeDashboardPage'),
  ),
  report(
    'Saved reports',
    'saved',
    4,
    named(() => import('./features/reports/saved/SavedReportsPage'), 'SavedReportsPage'),
  ),
  computer(
    'Away time',
    'away-time',
    named(() => import('./features/computer-time/pages/AwayTimePage'), 'AwayTimePage'),
  ),
  computer(
    'Activities',
    'activities',
    named(() => import('./features/computer-time/pages/ActivitiesPage'), 'ActivitiesPage'),
  ),
  computer(
    'Categories',
    'categories',
    named(() => import('./features/computer-time/pages/CategoriesPage'), 'CategoriesPage'),
  ),
  computer(
    'Timeline',
    'timeline',
    named(() => import('./features/computer-time/pages/TimelinePage'), 'TimelinePage'),
  ),
  computer('Goals', 'goals'),
  computer('Efficiency', 'efficiency'),
  computer('User statistics', 'user-statistics'),
  {
    path: '/homepage/exports',
    title: 'Recent exports',
    page: { load: () => import('./features/reports/exports/RecentExportsPage') },
  },
  {
    path: '/homepage/projects',
    title: 'Projects',
    page: { load: () => import('./features/projects/pages/ProjectsPage') },
    nav: { section: 'MANAGE', label: 'Projects', icon: IconFolder },
  },
  {
    path: '/homepage/tags',
    title: 'Tags',
    page: { load: () => import('./features/tags/pages/TagsPage') },
    nav: { section: 'MANAGE', label: 'Tags', icon: IconTags },
  },
  {
    path: '/homepage/invoices',
    title: 'Invoices',
    page: { load: () => import('./features/invoices/pages/ClientInvoicesPage') },
    nav: { section: 'MANAGE', label: 'Invoices', icon: IconFileInvoice, permission: 'invoices:manage' },
  },
  {
    path: '/homepage/user',
    title: 'Users',
    page: { load: () => import('./features/team/pages/UsersPage') },
    nav: { section: 'TEAM', label: 'Users', icon: IconUsers, permission: 'members:view' },
  },
  {
    path: '/homepage/roles',
    title: 'Roles and access',
    page: { load: () => import('./features/roles/pages/RolesPage') },
    nav: { section: 'TEAM', label: 'Roles', icon: IconShieldLock, permission: 'roles:manage' },
  },
  {
    path: '/homepage/sso',
    title: 'Single sign-on',
    page: { load: named(() => import('./features/sso/pages/SsoSettingsPage'), 'SsoSettingsPage') },
    // The page and its API are for whoever changes workspace settings (owners and admins).
    nav: { section: 'TEAM', label: 'Single sign-on', icon: IconKey, permission: 'workspace:update' },
  },
  {
    path: '/homepage/audit-log',
    title: 'Audit log',
    page: { load: () => import('./features/audit-log/pages/AuditLogPage') },
    nav: { section: 'TEAM', label: 'Audit log', icon: IconHistory, permission: 'audit:view' },
  },
  {
    path: '/homepage/webhooks',
    title: 'API & webhooks',
    page: { load: () => import('./features/webhooks/pages/WebhooksPage') },
    nav: { section: 'TEAM', label: 'API & webhooks', icon: IconWebhook, permission: 'webhooks:manage' },
  },
  {
    path: '/homepage/attendance',
    title: 'Attendance',
    page: { soon: 'Attendance is being built.' },
    nav: { section: 'TEAM', label: 'Attendance', icon: IconUserCheck },
  },
  {
    path: '/homepage/approvals',
    title: 'Approvals',
    page: { load: () => import('./features/approvals/pages/ApprovalsPage') },
    // Reviewing; submitting one's own period is on the timesheet.
    nav: { section: 'TEAM', label: 'Approvals', icon: IconChecklist, permission: 'approvals:review' },
  },
  {
    path: '/homepage/billing',
    title: 'Your subscription',
    page: { load: () => import('./features/billing/pages/SubscriptionPage') },
  },
  {
    path: '/homepage/invoice',
    title: 'Invoice',
    page: { load: () => import('./features/billing/pages/InvoicesPage') },
  },
  {
    path: '/homepage/billingaddress',
    title: 'Billing address',
    page: { load: () => import('./features/billing/pages/BillingAddressPage') },
  },
  {
    path: '/homepage/subscription',
    title: 'Subscription',
    page: { load: () => import('./features/billing/pages/InvoiceInformationPage') },
  },
  { path: '/homepage/payment', title: 'Payment', page: { load: () => import('./features/billing/pages/PaymentPage') } },
  { path: '/homepage/addtask', title: 'Add task', page: { redirect: '/homepage/projects' } },
  { path: '/homepage/addproject', title: 'Add project', page: { redirect: '/homepage/projects' } },
  { path: '/homepage/tab', title: 'Settings', page: { redirect: '/homepage/profile' } },
  {
    path: '/homepage/welcome',
    title: 'Welcome',
    page: { load: named(() => import('./features/profile/pages/WelcomePage'), 'WelcomePage') },
  },
  {
    // The desktop agent's pairing link (issue 35): `?code=ABCD-EFGH` comes filled in.
    path: '/homepage/agent/pair',
    title: 'Pair a computer',
    page: { load: named(() => import('./features/devices/pages/PairDevicePage'), 'PairDevicePage') },
  },
  {
    path: '/homepage/profile',
    title: 'Profile settings',
    page: { load: named(() => import('./features/profile/pages/ProfilePage'), 'ProfilePage') },
  },
];

/** The page title follows the path, as in the spec; 'Sundial' for a path of no page. */
export function titleForPath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return [...APP_ROUTES, ...PUBLIC_ROUTES].find((route) => route.path === path)?.title ?? 'Sundial';
}

/** Every page of the signed-in app, by path, so checks that go through all of them (the phone journey) cover a new page too. */
export const SIGNED_IN_PATHS: string[] = APP_ROUTES.map((route) => route.path);

/** One link of a menu or of the sidebar. */
export interface NavItem {
  label: string;
  path: string;
}

export const menuItems = (id: MenuId): NavItem[] =>
  APP_ROUTES.filter((route) => route.menu?.id === id).map((route) => ({ label: route.title, path: route.path }));

/** The Reports menu: its groups with their reports, in table order. */
export const REPORT_SECTIONS: { heading: string; items: NavItem[] }[] = REPORT_GROUPS.map((heading, group) => ({
  heading,
  items: APP_ROUTES.filter((route) => route.menu?.id === 'reports' && route.menu.group === group).map((route) => ({
    label: route.title,
    path: route.path,
  })),
}));

export const COMPUTER_TIME_ITEMS: NavItem[] = menuItems('computerTime');

/** One line of the sidebar: a link to a page, or a menu of pages. */
export type SidebarEntry =
  | { kind: 'link'; label: string; path: string; icon: Icon; permission?: Permission }
  | { kind: 'menu'; id: MenuId; label: string; icon: Icon; prefix: string; items: NavItem[] };

/** The sidebar, section by section, in table order; a menu sits where its first page is listed. */
export const SIDEBAR: { section: NavSection; entries: SidebarEntry[] }[] = NAV_SECTIONS.map((section) => {
  const entries: SidebarEntry[] = [];
  const seen = new Set<MenuId>();
  for (const route of APP_ROUTES) {
    if (route.nav?.section === section) {
      const { label, icon, permission } = route.nav;
      entries.push({ kind: 'link', label, path: route.path, icon, ...(permission ? { permission } : {}) });
    }
    const id = route.menu?.id;
    if (id && MENUS[id].section === section && !seen.has(id)) {
      seen.add(id);
      const { label, icon, prefix } = MENUS[id];
      entries.push({ kind: 'menu', id, label, icon, prefix, items: menuItems(id) });
    }
  }
  return { section, entries };
});

/** The sidebar as someone sees it: without the links their permissions in the workspace do not reach. */
export function sidebarFor(can: (permission: Permission) => boolean): typeof SIDEBAR {
  return SIDEBAR.map(({ section, entries }) => ({
    section,
    entries: entries.filter((entry) => entry.kind !== 'link' || !entry.permission || can(entry.permission)),
  }));
}
