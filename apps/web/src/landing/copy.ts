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
  lead: 'A one-click timer, weekly timesheets, projects and teams in one open-source app that you can use here or run on your own servers.',
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
      text: 'Import the detailed exports of Toggl Track, Clockify and Harvest, or any CSV of clients, projects and tasks.',
    },
    {
      title: `${TRIAL_DAYS} days of Pro, free`,
      text: 'Every feature, no credit card. Afterwards, Free keeps your data.',
    },
  ],
};

export const DEMO_BANNER = {
  title: 'See Sundial with your own projects in mind',
  text: 'We walk your team through the timesheet, projects, team management and self-hosting, and answer your questions.',
  cta: { label: 'Book a demo', href: '/demo' },
};

/** What a capability's state is today: on the site we say so, and never sell what is not filed. */
export type Availability = 'available' | 'building';
export const STATUS_LABELS: Record<Availability, string> = {
  available: 'Available',
  building: 'In development',
};

export interface Feature {
  title: string;
  text: string;
  /** Its screen in the app, or the page that documents it. */
  link: Link;
  status: Availability;
}

export interface Audience {
  id: string;
  title: string;
  lead: string;
  features: Feature[];
}

const timesheet: Link = { label: 'Open the timesheet', href: '/homepage/timesheet' };
const people: Link = { label: 'Open people and groups', href: '/homepage/user' };
const projects: Link = { label: 'Open projects', href: '/homepage/projects' };
const importing: Link = { label: 'How importing works', href: '/blog/moving-from-toggl-clockify-harvest' };

export const AUDIENCES: Audience[] = [
  {
    id: 'employees',
    title: 'For employees',
    lead: 'Track time in seconds and get back to work.',
    features: [
      {
        title: 'One-click timer',
        text: 'Start a timer with a note, project, task and tags; pause it for a break and stop it when you switch. It runs on the server, so it survives a reload and shows the same in every tab.',
        link: timesheet,
        status: 'available',
      },
      {
        title: 'Weekly timesheet and calendar',
        text: 'Prefer typing hours? Fill in the week grid with durations like 1:30 or 90m, or drag entries on a calendar. The list, the grid and the calendar always show the same totals.',
        link: timesheet,
        status: 'available',
      },
      {
        title: 'Tags',
        text: 'Group tags in lists such as “Activity type”, label your entries with them, and let your workspace require them.',
        link: { label: 'Open tags', href: '/homepage/tags' },
        status: 'available',
      },
      {
        title: 'Your time zone, your week',
        text: 'Set your time zone, week start, date and time format in your profile. Days when the clocks change count correctly.',
        link: { label: 'Open your profile', href: '/homepage/profile' },
        status: 'available',
      },
    ],
  },
  {
    id: 'managers',
    title: 'For managers',
    lead: 'Know where the hours go.',
    features: [
      {
        title: 'Projects, tasks and clients',
        text: 'Organise work by client, project and nested task, with colours, descriptions, people, a budget in hours or money and a billable default per project.',
        link: projects,
        status: 'available',
      },
      {
        title: 'Your team’s timesheets, live',
        text: 'Managers see and correct the timesheets of their people, and changes appear in every open tab within a second.',
        link: timesheet,
        status: 'available',
      },
      {
        title: 'Invites, guests and groups',
        text: 'Invite people by e-mail with a role and a group, share projects with guests who need no license, and organise people in nested groups.',
        link: people,
        status: 'available',
      },
      {
        title: 'Import from Toggl Track, Clockify and Harvest',
        text: 'Bring clients, projects, tasks, tags and past entries from the export files of the tracker you use today, or clients, projects and tasks from any CSV, with a preview of every row before anything is saved.',
        link: importing,
        status: 'available',
      },
    ],
  },
  {
    id: 'enterprise',
    title: 'For enterprise',
    lead: 'Security, control and your own infrastructure.',
    features: [
      {
        title: 'Self-hosting',
        text: 'Run Sundial on your servers: one process and an embedded database to start, your PostgreSQL and mail server for production.',
        link: { label: 'Self-hosting guide', href: '/blog/self-hosting-sundial' },
        status: 'available',
      },
      {
        title: 'REST API',
        text: 'A versioned API described by OpenAPI 3.1, with interactive documentation you can try in the browser.',
        link: { label: 'API documentation', href: '/api/docs' },
        status: 'available',
      },
      {
        title: 'Secure accounts',
        text: 'Passwords hashed with argon2id and checked against common breached passwords, sessions kept on the server behind an HttpOnly cookie, rate-limited log-in, and password resets by single-use links that expire in an hour.',
        link: { label: 'How we protect accounts', href: '/blog/why-we-built-sundial' },
        status: 'available',
      },
      {
        title: 'Roles and permissions',
        text: 'Owner, admin, manager, member and guest, each with a documented set of permissions that the server checks on every request.',
        link: people,
        status: 'available',
      },
    ],
  },
  {
    id: 'hr',
    title: 'For HR',
    lead: 'Joiners, leavers and hours you can rely on.',
    features: [
      {
        title: 'Joiners and leavers',
        text: 'New people join through an e-mailed, single-use invitation. Disabling someone ends their access at once, and their past time stays where it was.',
        link: people,
        status: 'available',
      },
      {
        title: 'Weeks that match your payroll',
        text: 'Each person’s days and weeks follow their own time zone and week start, so weekly totals line up with the pay period.',
        link: { label: 'How we handle time zones', href: '/blog/time-zones-and-dst' },
        status: 'available',
      },
      {
        title: 'Overtime and hourly-rate calculators',
        text: 'Work out a week’s pay with overtime, or the hourly rate that covers a salary and costs, right here on this site.',
        link: { label: 'Overtime calculator', href: '/calculators/overtime' },
        status: 'available',
      },
      {
        title: 'Personal data under your control',
        text: 'Self-host to keep every record on your own servers. The privacy policy says what is stored, why and for how long.',
        link: { label: 'Privacy policy', href: '/privacy' },
        status: 'available',
      },
    ],
  },
];

export interface Integration {
  id: string;
  title: string;
  text: string;
  detail: string;
  status: Availability;
  link?: Link;
}

/** Only what exists or is being built (status 'building'); no third-party logos. */
export const INTEGRATIONS: Integration[] = [
  {
    id: 'api',
    title: 'REST API',
    text: 'Everything the app does, over a versioned REST API.',
    detail:
      'The API lives under /api/v1, authenticates with the same session cookie as the app, and answers every failure in one JSON shape, { error: { code, message } }. Its interactive documentation lists every route with its schema and lets you try calls in the browser.',
    status: 'available',
    link: { label: 'Open the API documentation', href: '/api/docs' },
  },
  {
    id: 'openapi',
    title: 'OpenAPI description',
    text: 'An OpenAPI 3.1 document to generate a client in your language.',
    detail:
      'The machine-readable description of the whole API is served with every installation. Feed it to an OpenAPI generator to get a typed client, or import it into your API tool.',
    status: 'available',
    link: { label: 'Download the OpenAPI document', href: '/api/docs/json' },
  },
  {
    id: 'csv',
    title: 'CSV import',
    text: 'Import clients, projects and tasks from a spreadsheet.',
    detail:
      'On the Projects screen choose Import From CSV: upload a CSV of clients, projects and tasks (with their hierarchy), check the preview with an error per row, then import it in one go: nothing is ever half-imported.',
    status: 'available',
    link: { label: 'Open projects', href: '/homepage/projects' },
  },
  {
    id: 'importers',
    title: 'Toggl Track, Clockify and Harvest',
    text: 'Bring your history from the export files of these trackers.',
    detail:
      'On the Projects screen choose Import From add-ons: the importers read the detailed CSV exports of these trackers, show every row before anything is saved, and create the missing clients, projects, tasks and tags along with your past time entries. Entries of people who are members of your workspace (matched by e-mail) stay theirs.',
    status: 'available',
    link: { label: 'How to export and import your data', href: '/blog/moving-from-toggl-clockify-harvest' },
  },
  {
    id: 'email',
    title: 'E-mail via SMTP',
    text: 'Invitations, resets and demo requests sent through your mail server.',
    detail:
      'Set SMTP_URL and Sundial delivers its e-mails through your mail server; without it, e-mails are kept in an outbox in the database.',
    status: 'available',
    link: { label: 'Self-hosting guide', href: '/blog/self-hosting-sundial' },
  },
  {
    id: 'postgresql',
    title: 'PostgreSQL',
    text: 'Keep your data in your own PostgreSQL database.',
    detail:
      'Sundial starts with an embedded database in a folder; set DATABASE_URL and it uses your PostgreSQL instead, with the same schema and migrations, so your backups and tools keep working.',
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
      'Yes. On the Projects screen, import the detailed CSV export of Toggl Track, Clockify or Harvest (clients, projects, tasks, tags and time entries), or a CSV of clients, projects and tasks. Our blog post explains how to export and how the columns map.',
  },
  {
    question: 'How do you keep my data safe?',
    answer:
      'Passwords are hashed with argon2id, sessions live on the server behind an HttpOnly cookie, log-in is rate limited, and every API request is authorised. Card payments go through a payment processor, so card numbers never reach our database.',
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
