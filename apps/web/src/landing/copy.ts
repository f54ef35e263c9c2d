// Every text of the public site that is not a post or a legal page, in one place.
import { ANNUAL_DISCOUNT_PERCENT, TRIAL_DAYS } from '@sundial/core';

export interface Link {
  label: string;
  href: string;
}

export const NAV_LINKS: Link[] = [
  { label: 'Features', href: '/#features' },
  { label: 'Pricing', href: '/pricing' },
  { label: 'Integrations', href: '/integrations' },
  { label: 'Blog', href: '/blog' },
  { label: 'Book a Demo', href: '/demo' },
];
export const SIGN_IN: Link = { label: 'Sign in', href: '/loginpage' };
export const SIGN_UP: Link = { label: 'Start free trial', href: '/signuppage' };

export const HERO = {
  title: 'Time tracking your team will actually use',
  lead: 'A one-click timer, weekly timesheets, projects and reports in one open-source app that you can use here or run on your own servers.',
  fine: [`${TRIAL_DAYS}-day Pro trial`, 'No credit card', 'Open source (AGPL-3.0)'],
};

export const FACTS = {
  heading: 'Built in the open',
  items: [
    {
      title: 'Open source',
      text: 'Licensed under AGPL-3.0-or-later. Read every line that touches your data.',
    },
    {
      title: 'Self-host in minutes',
      text: 'One Node.js process with an embedded database, or your own PostgreSQL.',
    },
    {
      title: 'Bring your history',
      text: 'Importers for Toggl Track, Clockify and Harvest exports are on the way.',
    },
    {
      title: `${TRIAL_DAYS} days of Pro, free`,
      text: 'Every feature, no credit card. Afterwards, Free keeps your data.',
    },
  ],
};

export const DEMO_BANNER = {
  title: 'See Sundial with your own projects in mind',
  text: 'We walk your team through timesheets, approvals, reports and self-hosting, and answer your questions.',
  cta: { label: 'Book a demo', href: '/demo' },
};

export interface Feature {
  title: string;
  text: string;
  link: Link;
  /** The plan a feature needs, when it is not in Free. */
  plan?: 'Basic' | 'Pro';
}

export interface Audience {
  id: string;
  title: string;
  lead: string;
  features: Feature[];
}

const timesheet: Link = { label: 'Open the timesheet', href: '/homepage/timesheet' };
const pricing: Link = { label: 'Compare plans', href: '/pricing' };

export const AUDIENCES: Audience[] = [
  {
    id: 'employees',
    title: 'For employees',
    lead: 'Track time in seconds and get back to work.',
    features: [
      {
        title: 'One-click timer',
        text: 'Start a timer on a project and task, stop it when you switch. It runs on the server, so it keeps going when you close the laptop and shows the same in every tab.',
        link: timesheet,
      },
      {
        title: 'Weekly timesheet',
        text: 'Prefer typing hours? Fill in the week grid, add the entry you forgot, and see the week’s total at a glance.',
        link: timesheet,
      },
      {
        title: 'Tags',
        text: 'Label entries as billable, meeting or support, and filter every report by them.',
        link: { label: 'Open tags', href: '/homepage/tags' },
      },
      {
        title: 'Your time zone, your week',
        text: 'Days and weeks follow your time zone and week start; days when the clocks change count correctly.',
        link: { label: 'How we handle time zones', href: '/blog/time-zones-and-dst' },
      },
    ],
  },
  {
    id: 'managers',
    title: 'For managers',
    lead: 'Know where the hours and the budget go.',
    features: [
      {
        title: 'Projects, tasks and clients',
        text: 'Organise work by client, project and task, with colours, descriptions and a billable default per project.',
        link: { label: 'Open projects', href: '/homepage/projects' },
      },
      {
        title: 'Reports and exports',
        text: 'Summary, detailed and by-day reports, people by task and project, exported to CSV, Excel or Google Sheets.',
        link: { label: 'Open reports', href: '/homepage/reports/summary' },
      },
      {
        title: 'Budgets and alerts',
        text: 'Give a project a budget in hours or money and get an alert before it runs out.',
        link: pricing,
        plan: 'Basic',
      },
      {
        title: 'Timesheet approvals',
        text: 'People submit their week; managers approve it or send it back with a note.',
        link: pricing,
        plan: 'Pro',
      },
    ],
  },
  {
    id: 'enterprise',
    title: 'For enterprise',
    lead: 'Security, control and your own infrastructure.',
    features: [
      {
        title: 'Single sign-on',
        text: 'Sign in through your identity provider with OpenID Connect, set up per workspace.',
        link: pricing,
        plan: 'Pro',
      },
      {
        title: 'Roles and permissions',
        text: 'Owner, admin, manager, member and guest roles out of the box, and custom roles on Pro. The server checks every request.',
        link: pricing,
      },
      {
        title: 'Self-hosting',
        text: 'Run Sundial on your servers: one process and an embedded database to start, PostgreSQL and many processes to grow.',
        link: { label: 'Self-hosting guide', href: '/blog/self-hosting-sundial' },
      },
      {
        title: 'REST API',
        text: 'A versioned API described by OpenAPI 3.1, with interactive documentation you can try in the browser.',
        link: { label: 'API documentation', href: '/api/docs' },
      },
    ],
  },
  {
    id: 'hr',
    title: 'For HR',
    lead: 'Attendance, overtime and labour costs you can rely on.',
    features: [
      {
        title: 'Attendance',
        text: 'See when people started and finished each day and how long they worked.',
        link: { label: 'Open attendance', href: '/homepage/attendance' },
      },
      {
        title: 'Billing rates and labour costs',
        text: 'Set hourly rates per person and project. Each entry keeps the rate it was recorded with, so history never changes.',
        link: pricing,
        plan: 'Pro',
      },
      {
        title: 'Overtime',
        text: 'Weeks follow the week start your payroll uses, so overtime is counted per person and per week.',
        link: { label: 'Overtime calculator', href: '/calculators/overtime' },
      },
      {
        title: 'Two-factor authentication',
        text: 'Protect accounts with a second factor, and keep an audit log of every sensitive change.',
        link: pricing,
        plan: 'Pro',
      },
    ],
  },
];

export type IntegrationStatus = 'available' | 'building';
export const STATUS_LABELS: Record<IntegrationStatus, string> = {
  available: 'Available',
  building: 'In development',
};

export interface Integration {
  id: string;
  title: string;
  text: string;
  detail: string;
  status: IntegrationStatus;
  link?: Link;
}

/** Only what exists or is on the roadmap; no third-party logos. */
export const INTEGRATIONS: Integration[] = [
  {
    id: 'api',
    title: 'REST API',
    text: 'Everything the app does, over a versioned REST API with OpenAPI 3.1 documentation.',
    detail:
      'The API lives under /api/v1 and answers every failure in one JSON shape, { error: { code, message } }. Its interactive documentation lists every route with its schema and lets you try calls in the browser.',
    status: 'available',
    link: { label: 'Open the API documentation', href: '/api/docs' },
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    text: 'Get an HTTP call when entries, projects or people change.',
    detail:
      'Webhooks will post signed JSON to your endpoint when time entries, projects, tasks or members change, with retries when your endpoint is down.',
    status: 'building',
  },
  {
    id: 'csv-excel',
    title: 'CSV and Excel',
    text: 'Export any report to CSV, Excel or Google Sheets.',
    detail:
      'Every report can be exported to CSV and Excel (Basic and Pro plans). CSV files open in Google Sheets, Numbers and LibreOffice as well.',
    status: 'building',
    link: { label: 'See the plans', href: '/pricing' },
  },
  {
    id: 'importers',
    title: 'Importers',
    text: 'Bring your history from Toggl Track, Clockify and Harvest exports.',
    detail:
      'The importers read the detailed CSV exports of these trackers, show you how they mapped the columns, and create the missing clients, projects, tasks and tags.',
    status: 'building',
    link: { label: 'How to export your data today', href: '/blog/moving-from-toggl-clockify-harvest' },
  },
  {
    id: 'calendar',
    title: 'Calendar feed',
    text: 'See your tracked time in any calendar app.',
    detail:
      'A private iCalendar (.ics) address per person that calendar apps subscribe to, showing tracked time beside meetings.',
    status: 'building',
  },
  {
    id: 'email',
    title: 'E-mail via SMTP',
    text: 'Invitations, resets and alerts sent through the SMTP server you choose.',
    detail:
      'Set SMTP_URL and Sundial delivers its e-mails through your mail server; without it, e-mails are kept in an outbox in the database.',
    status: 'available',
    link: { label: 'Self-hosting guide', href: '/blog/self-hosting-sundial' },
  },
];

export const FAQ: { question: string; answer: string }[] = [
  {
    question: 'How does the free trial work?',
    answer: `A new workspace gets ${TRIAL_DAYS} days of the Pro plan with every feature. No credit card is needed. When the trial ends without a purchase, the workspace moves to the Free plan: paid features lock and all your data is kept.`,
  },
  {
    question: 'What is a license?',
    answer:
      'One license lets one member track time in a paid workspace. You choose between 1 and 999 licenses, and never fewer than the members you have.',
  },
  {
    question: 'How much do I save with annual billing?',
    answer: `Annual billing costs ${ANNUAL_DISCOUNT_PERCENT}% less than paying monthly for a year. You pay for the year in advance, and you can switch between monthly and annual billing without changing your number of licenses.`,
  },
  {
    question: 'Do you charge VAT?',
    answer:
      'Prices are in US dollars without tax. Customers in the EU pay their country’s VAT; businesses with a valid VAT id in another EU country are billed under the reverse charge. Tax is shown as its own line on every invoice.',
  },
  {
    question: 'Can I run Sundial on my own servers?',
    answer:
      'Yes. Sundial is open source under the AGPL-3.0-or-later licence. One command starts it with an embedded database; for production you point it at PostgreSQL. The self-hosting guide on our blog walks you through it.',
  },
  {
    question: 'Can I bring my data from another tracker?',
    answer:
      'Importers for Toggl Track, Clockify and Harvest exports are being built. You can export your history today; our blog post explains how and how the columns map.',
  },
  {
    question: 'How do you keep my data safe?',
    answer:
      'Passwords are hashed with argon2id, sessions live on the server behind an HttpOnly cookie, every API request is authorised, and card numbers never reach our database.',
  },
];

export const CLOSING = {
  title: 'Start tracking time today',
  text: `Try every Pro feature free for ${TRIAL_DAYS} days. No credit card needed.`,
};

export const FOOTER_COLUMNS: { title: string; links: Link[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '/#features' },
      { label: 'Pricing', href: '/pricing' },
      { label: 'Book a demo', href: '/demo' },
      { label: 'Start free trial', href: '/signuppage' },
      { label: 'Sign in', href: '/loginpage' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'FAQ', href: '/#faq' },
      { label: 'Contact us', href: '/demo' },
      { label: 'Reset your password', href: '/forgotten_password' },
      { label: 'Self-hosting guide', href: '/blog/self-hosting-sundial' },
    ],
  },
  {
    title: 'Integrations',
    links: INTEGRATIONS.map((integration) => ({ label: integration.title, href: `/integrations#${integration.id}` })),
  },
  {
    title: 'Resources',
    links: [
      { label: 'Blog', href: '/blog' },
      { label: 'API documentation', href: '/api/docs' },
      { label: 'Importing your data', href: '/blog/moving-from-toggl-clockify-harvest' },
      { label: 'Time zones and DST', href: '/blog/time-zones-and-dst' },
    ],
  },
  {
    title: 'Calculators',
    links: [
      { label: 'Hourly rate calculator', href: '/calculators/hourly-rate' },
      { label: 'Overtime calculator', href: '/calculators/overtime' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms of service', href: '/terms' },
      { label: 'Privacy policy', href: '/privacy' },
    ],
  },
];

export const COOKIE_NOTICE = {
  title: 'Cookies',
  text: 'We use only the cookies needed to sign you in. With your consent we would also measure visits to improve this site; nothing is measured until you accept.',
  accept: 'Accept analytics',
  decline: 'Only necessary',
  settings: 'Cookie settings',
};
