import {
  IconCalendarTime,
  IconChartBar,
  IconClock,
  IconDeviceDesktopAnalytics,
  IconFolder,
  IconLayoutDashboard,
  IconTags,
  IconUserCheck,
  IconUsers,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  path: string;
}

export interface ReportSection {
  heading: string;
  items: NavItem[];
}

const report = (label: string, slug: string): NavItem => ({ label, path: `/homepage/reports/${slug}` });
const computer = (label: string, slug: string): NavItem => ({ label, path: `/homepage/computer-time/${slug}` });

/** The Reports popover, as in the spec (two BUDGETING REPORTS groups). */
export const REPORT_SECTIONS: ReportSection[] = [
  {
    heading: 'TIME REPORTS',
    items: [
      report('Summary', 'summary'),
      report('Detailed', 'detailed'),
      report('By days', 'by-days'),
      report('Custom', 'custom'),
    ],
  },
  {
    heading: 'PEOPLE REPORTS',
    items: [
      report('People by task', 'people-by-task'),
      report('People by days and task', 'people-by-days-and-task'),
      report('People by days', 'people-by-days'),
      report('People by projects', 'people-by-projects'),
    ],
  },
  {
    heading: 'BUDGETING REPORTS',
    items: [
      report('Billable, unbillable, invoiced', 'billable'),
      report('Estimates', 'estimates'),
      report('Revenues', 'revenues'),
      report('Costs', 'costs'),
      report('Margin', 'margin'),
    ],
  },
  { heading: 'BUDGETING REPORTS', items: [report('Real-time dashboard', 'real-time-dashboard')] },
];

export const COMPUTER_TIME_ITEMS: NavItem[] = [
  computer('Away time', 'away-time'),
  computer('Activities', 'activities'),
  computer('Categories', 'categories'),
  computer('Timeline', 'timeline'),
  computer('Goals', 'goals'),
  computer('Efficiency', 'efficiency'),
  computer('User statistics', 'user-statistics'),
];

export const NAV = {
  timesheet: { label: 'Timesheet', path: '/homepage/timesheet', icon: IconClock },
  dashboard: { label: 'Dashboard', path: '/homepage/dashboard', icon: IconLayoutDashboard },
  reports: { label: 'Reports', icon: IconChartBar },
  computerTime: { label: 'Computer time', icon: IconDeviceDesktopAnalytics },
  projects: { label: 'Projects', path: '/homepage/projects', icon: IconFolder },
  tags: { label: 'Tags', path: '/homepage/tags', icon: IconTags },
  users: { label: 'Users', path: '/homepage/user', icon: IconUsers },
  attendance: { label: 'Attendance', path: '/homepage/attendance', icon: IconUserCheck },
  calendar: { icon: IconCalendarTime },
} as const;

const FIXED_TITLES: Record<string, string> = {
  '/homepage/timesheet': 'TimeSheet',
  '/homepage/dashboard': 'Dashboard',
  '/homepage/projects': 'Projects',
  '/homepage/tags': 'Tags',
  '/homepage/user': 'Users',
  '/homepage/attendance': 'Attendance',
  '/homepage/billing': 'Your subscription',
  '/homepage/invoice': 'Invoice',
  '/homepage/billingaddress': 'Billing address',
  '/homepage/subscription': 'Subscription',
  '/homepage/payment': 'Payment',
  '/homepage/addtask': 'Add task',
  '/homepage/addproject': 'Add project',
  '/homepage/tab': 'Settings',
  '/homepage/profile': 'Profile settings',
};

const ALL_ITEMS = [...REPORT_SECTIONS.flatMap((s) => s.items), ...COMPUTER_TIME_ITEMS];

/** The page title follows the path, as in the spec. */
export function titleForPath(pathname: string): string {
  const path = pathname.replace(/\/$/, '');
  return FIXED_TITLES[path] ?? ALL_ITEMS.find((item) => item.path === path)?.label ?? 'Sundial';
}

/**
 * Every page of the signed-in app, by path: the router's /homepage children (kept in step by
 * nav.test.ts), so checks that go through all of them (the phone journey) cover a new page too.
 */
export const SIGNED_IN_PATHS: string[] = [...Object.keys(FIXED_TITLES), ...ALL_ITEMS.map((item) => item.path)];
