import { ActionIcon, HoverCard, Menu, NavLink, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconChevronRight,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconX,
} from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { currentWorkspace, useMe } from '../api/session';
import { Logo } from '../components/Logo';
import { type Icon, MENUS, type NavItem, REPORT_SECTIONS, type SidebarEntry, sidebarFor } from '../routes';
import classes from './Shell.module.css';

interface SidebarProps {
  collapsed: boolean;
  onToggle: () => void;
  /** In the phone drawer: never collapsed, a close button, and menus that unfold in place (no hover). */
  inDrawer?: boolean;
}

function Group({ label, collapsed }: { label: string; collapsed: boolean }) {
  if (collapsed) return <div className={classes.groupRule} aria-hidden="true" />;
  return (
    <Text size="xs" fw={700} c="dimmed" className={classes.groupLabel}>
      {label}
    </Text>
  );
}

function Entry({
  label,
  path,
  icon: Icon,
  collapsed,
}: {
  label: string;
  path: string;
  icon: Icon;
  collapsed: boolean;
}) {
  const { pathname } = useLocation();
  const link = (
    <NavLink
      component={Link}
      to={path}
      label={collapsed ? undefined : label}
      aria-label={label}
      leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
      active={pathname.startsWith(path)}
      className={classes.entry}
    />
  );
  return collapsed ? (
    <Tooltip label={label} position="right">
      {link}
    </Tooltip>
  ) : (
    link
  );
}

function ReportsEntry({ collapsed }: { collapsed: boolean }) {
  const { pathname } = useLocation();
  const Icon = MENUS.reports.icon;
  return (
    <HoverCard position="right-start" width={300} shadow="md" openDelay={200} closeDelay={200} withinPortal>
      <HoverCard.Target>
        <UnstyledButton
          className={classes.menuButton}
          data-active={pathname.startsWith(MENUS.reports.prefix) || undefined}
          aria-label="Reports"
          aria-haspopup="menu"
        >
          <Icon size={20} stroke={1.6} aria-hidden />
          {!collapsed && <span className={classes.menuLabel}>Reports</span>}
          {!collapsed && <IconChevronRight size={16} aria-hidden="true" />}
        </UnstyledButton>
      </HoverCard.Target>
      <HoverCard.Dropdown p="sm" role="menu" aria-label="Reports">
        <Stack gap={6}>
          {REPORT_SECTIONS.map((section) => (
            <div key={section.items[0]?.path}>
              <Text size="xs" fw={700} c="dimmed" mb={2}>
                {section.heading}
              </Text>
              {section.items.map((item) => (
                <NavLink
                  key={item.path}
                  component={Link}
                  to={item.path}
                  label={item.label}
                  role="menuitem"
                  active={pathname === item.path}
                  py={4}
                />
              ))}
            </div>
          ))}
        </Stack>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function ComputerTimeEntry({ collapsed, items }: { collapsed: boolean; items: NavItem[] }) {
  const { pathname } = useLocation();
  const Icon = MENUS.computerTime.icon;
  return (
    <Menu position="right-start" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={classes.menuButton}
          data-active={pathname.startsWith(MENUS.computerTime.prefix) || undefined}
          aria-label="Computer time"
        >
          <Icon size={20} stroke={1.6} aria-hidden />
          {!collapsed && <span className={classes.menuLabel}>Computer time</span>}
          {!collapsed && <IconChevronRight size={16} aria-hidden="true" />}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item key={item.path} component={Link} to={item.path}>
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Reports and Computer time in the drawer: a touch screen has no hover, so they unfold in place. */
function FoldingEntry({ label, icon: Icon, items }: { label: string; icon: Icon; items: NavItem[] }) {
  const { pathname } = useLocation();
  const inside = items.some((item) => pathname === item.path);
  const [opened, setOpened] = useState(inside);
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      active={inside}
      className={classes.entry}
    >
      {items.map((item) => (
        <NavLink key={item.path} component={Link} to={item.path} label={item.label} active={pathname === item.path} />
      ))}
    </NavLink>
  );
}

/** A sidebar line from the route table: a link, or a menu (folding in the drawer, a popover on a desktop). */
function SidebarLine({ entry, collapsed, inDrawer }: { entry: SidebarEntry; collapsed: boolean; inDrawer: boolean }) {
  if (entry.kind === 'link')
    return <Entry label={entry.label} path={entry.path} icon={entry.icon} collapsed={collapsed} />;
  if (inDrawer) return <FoldingEntry label={entry.label} icon={entry.icon} items={entry.items} />;
  if (entry.id === 'reports') return <ReportsEntry collapsed={collapsed} />;
  return <ComputerTimeEntry collapsed={collapsed} items={entry.items} />;
}

export function Sidebar({ collapsed: collapsedProp, onToggle, inDrawer = false }: SidebarProps) {
  const collapsed = collapsedProp && !inDrawer;
  const workspace = currentWorkspace(useMe().data);
  const sidebar = sidebarFor((permission) => workspace?.permissions.includes(permission) ?? false);
  return (
    <nav
      className={classes.sidebar}
      data-collapsed={collapsed || undefined}
      data-in-drawer={inDrawer || undefined}
      aria-label="Main"
    >
      <div className={classes.sidebarInner}>
        <div className={classes.sidebarTop}>
          <Logo to="/homepage/timesheet" compact={collapsed} />
          {inDrawer ? (
            <ActionIcon variant="subtle" color="gray" onClick={onToggle} aria-label="Close menu">
              <IconX size={20} />
            </ActionIcon>
          ) : (
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={onToggle}
              aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
              aria-expanded={!collapsed}
            >
              {collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
            </ActionIcon>
          )}
        </div>
        <ScrollArea className={classes.sidebarScroll}>
          {sidebar.map(({ section, entries }) => (
            <Fragment key={section}>
              <Group label={section} collapsed={collapsed} />
              {entries.map((entry) => (
                <SidebarLine key={entry.label} entry={entry} collapsed={collapsed} inDrawer={inDrawer} />
              ))}
            </Fragment>
          ))}
        </ScrollArea>
      </div>
    </nav>
  );
}
