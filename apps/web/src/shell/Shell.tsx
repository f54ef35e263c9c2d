import { Button, Center, Group, Loader, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { type Me, useCurrentWorkspace, useMe } from '../api/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { NoWorkspace } from './NoWorkspace';
import { titleForPath } from './nav';
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

function Shell({ me }: { me: Me }) {
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useLocalStorage({ key: 'sundial.sidebar.collapsed', defaultValue: false });
  const workspace = useCurrentWorkspace(me);
  const title = titleForPath(pathname);

  useEffect(() => {
    document.title = `${title} · Sundial`;
  }, [title]);

  return (
    <div className={classes.layout} data-collapsed={collapsed || undefined}>
      <Sidebar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
      <div className={classes.main}>
        {workspace && <TrialBanner workspace={workspace} />}
        <header className={classes.topbar}>
          <Title order={1} size="h3">
            {title}
          </Title>
          <Group gap="sm">
            {workspace?.purchasedPlan === 'free' && (
              <Button component={Link} to="/homepage/billing" color="yellow" c="dark">
                Subscribe to Pro
              </Button>
            )}
            <UserMenu me={me} />
          </Group>
        </header>
        <main className={classes.content}>
          <Outlet context={me} />
        </main>
      </div>
    </div>
  );
}
