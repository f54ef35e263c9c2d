import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ComingSoon } from './components/ComingSoon';
import { NotFoundPage } from './components/NotFoundPage';
import { APP_ROUTES, type AppRoute, PUBLIC_ROUTES } from './routes';

/**
 * Shown while the first page's code loads: nothing, for the moment it takes. Said on purpose,
 * since React Router warns on every page load when a lazy route has no fallback.
 */
const NothingYet = () => null;

/** One entry of the route table as React Router wants it; pages that later releases fill say so honestly. */
function toRoute(route: AppRoute, path: string): RouteObject {
  const { page } = route;
  if ('load' in page) return { path, lazy: async () => ({ Component: (await page.load()).default }) };
  if ('soon' in page) return { path, element: <ComingSoon what={page.soon} /> };
  return { path, element: <Navigate to={page.redirect} replace /> };
}

const routes: RouteObject[] = [
  ...PUBLIC_ROUTES.map((route) => toRoute(route, route.path)),
  {
    path: '/homepage',
    lazy: async () => ({ Component: (await import('./shell/Shell')).RequireAuth }),
    children: [
      { index: true, element: <Navigate to="timesheet" replace /> },
      ...APP_ROUTES.map((route) => toRoute(route, route.path.replace('/homepage/', ''))),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter(routes.map((route) => ({ HydrateFallback: NothingYet, ...route })));
