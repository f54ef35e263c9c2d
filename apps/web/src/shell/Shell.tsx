import { Burger, Button, Center, Drawer, Group, Loader, Title } from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { currentWorkspace, type Me, managesBilling, useMe } from '../api/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { NotificationsBell } from '../features/notifications/NotificationsBell';
import { titleForPath } from '../routes';
import { EmailBanner } from './EmailBanner';
import { NoWorkspace } from './NoWorkspace';
import classes from './Shell.module.css';
import { Sidebar } from './Sidebar';
import { TrialBanner } from './TrialBanner';
import { UserMenu } from './UserMenu';

/** The protected area: signed-out visitors go to log-in and come back to the page they asked for. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  if (me.isLoading) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (me.isError) return <ErrorPanel onRetry={() => me.refetch()} />;
  if (!me.data) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/loginpage?next=${next}`} replace />;
  }
  // Their only workspace disabled or removed them (or they never had one): say so, not an empty shell.
  if (me.data.workspaces.length === 0) return <NoWorkspace me={me.data} />;
  return <Shell me={me.data} />;
}

/** Below Mantine's `sm` breakpoint (768 px) the sidebar becomes a drawer behind a menu button. */
const PHONE_QUERY = '(max-width: 47.99em)';

function Shell({ me }: { me: Me }) {
  const { pathname } = useLocation();
  // Desktop only: the drawer on a phone is always full width and never changes this choice.
  const [collapsed, setCollapsed] = useLocalStorage({ key: 'sundial.sidebar.collapsed', defaultValue: false });
  const isPhone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [menuOpen, menu] = useDisclosure(false);
  const workspace = currentWorkspace(me);
  const title = titleForPath(pathname);

  useEffect(() => {
    document.title = `${title} · Sundial`;
  }, [title]);

  // Following a link in the drawer closes it, and so does widening the window past the breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation, by design
  useEffect(() => menu.close(), [pathname, isPhone]);

  return (
    <div className={classes.layout} data-collapsed={collapsed || undefined}>
      {/* The first tab stop: past the sidebar and the top bar, straight to the page. */}
      <a href="#main-content" className={classes.skipLink}>
        Skip to main content
      </a>
      <Sidebar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
      <Drawer.Root opened={menuOpen && isPhone} onClose={menu.close} size={280}>
        <Drawer.Overlay />
        <Drawer.Content aria-label="Menu">
          <Drawer.Body p={0} h="100%">
            <Sidebar collapsed={false} onToggle={menu.close} inDrawer />
          </Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
      <div className={classes.main}>
        <EmailBanner me={me} />
        {workspace && <TrialBanner workspace={workspace} />}
        <header className={classes.topbar}>
          <div className={classes.topbarTitle}>
            {isPhone && (
              <Burger
                opened={menuOpen}
                onClick={menu.toggle}
                size="sm"
                aria-label="Open menu"
                aria-expanded={menuOpen}
              />
            )}
            <Title order={1} size={isPhone ? 'h4' : 'h3'}>
              {title}
            </Title>
          </div>
          <Group gap={isPhone ? 'xs' : 'sm'} wrap="nowrap">
            {/* Nothing to buy on a Sundial with billing off. */}
            {workspace && managesBilling(workspace) && workspace.purchasedPlan === 'free' && (
              <Button component={Link} to="/homepage/billing" color="yellow" size={isPhone ? 'xs' : 'sm'}>
                Subscribe to Pro
              </Button>
            )}
            {workspace && <NotificationsBell workspaceId={workspace.id} />}
            <UserMenu me={me} />
          </Group>
        </header>
        <main id="main-content" tabIndex={-1} className={classes.content}>
          <Outlet context={me} />
        </main>
      </div>
    </div>
  );
}
