import { ActionIcon, HoverCard, Menu, NavLink, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconChevronRight,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconX,
} from '@tabler/icons-react';
import { type ComponentType, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../components/Logo';
import { COMPUTER_TIME_ITEMS, NAV, type NavItem, REPORT_SECTIONS } from './nav';
import classes from './Shell.module.css';

type Icon = ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;

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
  const Icon = NAV.reports.icon;
  return (
    <HoverCard position="right-start" width={300} shadow="md" openDelay={200} closeDelay={200} withinPortal>
      <HoverCard.Target>
        <UnstyledButton
          className={classes.menuButton}
          data-active={pathname.startsWith('/homepage/reports') || undefined}
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

function ComputerTimeEntry({ collapsed }: { collapsed: boolean }) {
  const { pathname } = useLocation();
  const Icon = NAV.computerTime.icon;
  return (
    <Menu position="right-start" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={classes.menuButton}
          data-active={pathname.startsWith('/homepage/computer-time') || undefined}
          aria-label="Computer time"
        >
          <Icon size={20} stroke={1.6} aria-hidden />
          {!collapsed && <span className={classes.menuLabel}>Computer time</span>}
          {!collapsed && <IconChevronRight size={16} aria-hidden="true" />}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {COMPUTER_TIME_ITEMS.map((item) => (
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

export function Sidebar({ collapsed: collapsedProp, onToggle, inDrawer = false }: SidebarProps) {
  const collapsed = collapsedProp && !inDrawer;
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
          <Group label="TRACK" collapsed={collapsed} />
          <Entry {...NAV.timesheet} collapsed={collapsed} />
          <Group label="ANALYZE" collapsed={collapsed} />
          <Entry {...NAV.dashboard} collapsed={collapsed} />
          {inDrawer ? (
            <>
              <FoldingEntry
                label="Reports"
                icon={NAV.reports.icon}
                items={REPORT_SECTIONS.flatMap((section) => section.items)}
              />
              <FoldingEntry label="Computer time" icon={NAV.computerTime.icon} items={COMPUTER_TIME_ITEMS} />
            </>
          ) : (
            <>
              <ReportsEntry collapsed={collapsed} />
              <ComputerTimeEntry collapsed={collapsed} />
            </>
          )}
          <Group label="MANAGE" collapsed={collapsed} />
          <Entry {...NAV.projects} collapsed={collapsed} />
          <Entry {...NAV.tags} collapsed={collapsed} />
          <Group label="TEAM" collapsed={collapsed} />
          <Entry {...NAV.users} collapsed={collapsed} />
          <Entry {...NAV.attendance} collapsed={collapsed} />
        </ScrollArea>
      </div>
    </nav>
  );
}
