import { can, PERMISSIONS, type Role } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import {
  APP_ROUTES,
  COMPUTER_TIME_ITEMS,
  MENUS,
  PUBLIC_ROUTES,
  REPORT_SECTIONS,
  SIDEBAR,
  SIGNED_IN_PATHS,
  sidebarFor,
  titleForPath,
} from './routes';

const allPaths = [...PUBLIC_ROUTES, ...APP_ROUTES].map((route) => route.path);

describe('the route table', () => {
  it('lists each path once, the signed-in pages under /homepage', () => {
    expect(new Set(allPaths).size).toBe(allPaths.length);
    for (const route of APP_ROUTES) expect(route.path).toMatch(/^\/homepage\/[a-z-]+(\/[a-z-]+)?$/);
    expect(SIGNED_IN_PATHS).toEqual(APP_ROUTES.map((route) => route.path));
  });

  it('gives every signed-in page a title of its own, which the title of its path is', () => {
    for (const route of APP_ROUTES) {
      expect(route.title).not.toBe('Sundial');
      expect(titleForPath(route.path)).toBe(route.title);
      expect(titleForPath(`${route.path}/`)).toBe(route.title);
    }
    expect(titleForPath('/homepage/timesheet')).toBe('TimeSheet');
    expect(titleForPath('/homepage/reports/billable')).toBe('Billable, unbillable, invoiced');
    expect(titleForPath('/homepage/no-such-page')).toBe('Sundial');
  });

  it('redirects only to paths it serves', () => {
    for (const route of [...PUBLIC_ROUTES, ...APP_ROUTES]) {
      if ('redirect' in route.page) expect(allPaths).toContain(route.page.redirect);
    }
  });
});

describe('the sidebar', () => {
  it('has the spec sections and entries, in order', () => {
    expect(SIDEBAR.map(({ section, entries }) => [section, entries.map((e) => e.label)])).toEqual([
      ['TRACK', ['Timesheet']],
      ['ANALYZE', ['Dashboard', 'Reports', 'Computer time']],
      ['MANAGE', ['Projects', 'Tags', 'Invoices']],
      // The audit log (issue 34) is Sundial's own, beside the workspace's security settings.
      ['TEAM', ['Users', 'Roles', 'Single sign-on', 'Audit log', 'API & webhooks', 'Attendance', 'Approvals']],
    ]);
  });

  it('shows Single sign-on, beside Roles, only to roles that change workspace settings (owners and admins)', () => {
    const team = (role: Role) =>
      sidebarFor((permission) => can(role, permission))
        .find((s) => s.section === 'TEAM')
        ?.entries.map((e) => e.label);
    expect(team('owner')).toEqual([
      'Users',
      'Roles',
      'Single sign-on',
      'Audit log',
      'API & webhooks',
      'Attendance',
      'Approvals',
    ]);
    expect(team('admin')).toContain('Single sign-on');
    for (const role of ['manager', 'member', 'guest'] as const) expect(team(role)).not.toContain('Single sign-on');
    expect(team('member')).toEqual(['Users', 'Attendance']);
    const link = SIDEBAR.flatMap((s) => s.entries).find((e) => e.label === 'Single sign-on');
    expect(link).toMatchObject({ kind: 'link', path: '/homepage/sso' });
  });

  it('shows each role only the links of pages it may use, from the same permissions the API checks', () => {
    const links = (permissions: readonly string[]) =>
      sidebarFor((permission) => permissions.includes(permission)).flatMap((s) =>
        s.entries.filter((e) => e.kind === 'link').map((e) => e.label),
      );
    const ofRole = (role: Role) => links(PERMISSIONS.filter((permission) => can(role, permission)));
    const everyone = ['Timesheet', 'Dashboard', 'Projects', 'Tags', 'Attendance'];
    const managing = ['Invoices', 'Users', 'Roles', 'Single sign-on', 'Audit log', 'API & webhooks', 'Approvals'];
    for (const role of ['owner', 'admin'] as const)
      expect(ofRole(role).sort()).toEqual([...everyone, ...managing].sort());
    expect(ofRole('manager').sort()).toEqual([...everyone, 'Users', 'Approvals'].sort());
    expect(ofRole('member').sort()).toEqual([...everyone, 'Users'].sort());
    expect(ofRole('guest').sort()).toEqual([...everyone].sort());
    // A custom role is its permission set: a member allowed to make invoices sees Invoices, and no more.
    const custom = [...PERMISSIONS.filter((permission) => can('member', permission)), 'invoices:manage'];
    expect(links(custom).sort()).toEqual([...everyone, 'Users', 'Invoices'].sort());
  });

  it('links and menu items go to pages of the route table, menu items under their menu', () => {
    for (const entry of SIDEBAR.flatMap((s) => s.entries)) {
      if (entry.kind === 'link') expect(SIGNED_IN_PATHS).toContain(entry.path);
      else {
        expect(entry.items.length).toBeGreaterThan(0);
        for (const item of entry.items) {
          expect(SIGNED_IN_PATHS).toContain(item.path);
          expect(item.path.startsWith(`${MENUS[entry.id].prefix}/`)).toBe(true);
          expect(titleForPath(item.path)).toBe(item.label);
        }
      }
    }
  });

  it('groups the Reports menu as the spec does, with every report once', () => {
    expect(REPORT_SECTIONS.map((s) => [s.heading, s.items.length])).toEqual([
      ['TIME REPORTS', 4],
      ['PEOPLE REPORTS', 4],
      ['BUDGETING REPORTS', 5],
      ['BUDGETING REPORTS', 1],
      ['SAVED', 1],
    ]);
    const reports = APP_ROUTES.filter((route) => route.path.startsWith(MENUS.reports.prefix));
    expect(REPORT_SECTIONS.flatMap((s) => s.items.map((i) => i.path))).toEqual(reports.map((r) => r.path));
    expect(COMPUTER_TIME_ITEMS.map((i) => i.label)).toEqual([
      'Away time',
      'Activities',
      'Categories',
      'Timeline',
      'Goals',
      'Efficiency',
      'User statistics',
    ]);
  });
});
