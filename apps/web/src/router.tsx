import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ComingSoon } from './components/ComingSoon';
import { NotFoundPage } from './components/NotFoundPage';
import { COMPUTER_TIME_ITEMS, REPORT_SECTIONS } from './shell/nav';

const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const soon = (what: string) => ({ element: <ComingSoon what={what} /> });

/**
 * Shown while the first page's code loads: nothing, for the moment it takes. Said on purpose,
 * since React Router warns on every page load when a lazy route has no fallback.
 */
const NothingYet = () => null;

/** Routes as in the spec; pages that later releases fill say so honestly. */
const routes: RouteObject[] = [
  { path: '/', lazy: lazyPage(() => import('./landing/LandingPage').then((m) => ({ default: m.LandingPage }))) },
  {
    path: '/signuppage',
    lazy: lazyPage(() => import('./features/auth/pages/SignupPage').then((m) => ({ default: m.SignupPage }))),
  },
  {
    path: '/loginpage',
    lazy: lazyPage(() => import('./features/auth/pages/LoginPage').then((m) => ({ default: m.LoginPage }))),
  },
  {
    path: '/forgotten_password',
    lazy: lazyPage(() =>
      import('./features/auth/pages/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
    ),
  },
  {
    path: '/password',
    lazy: lazyPage(() => import('./features/auth/pages/NewPasswordPage').then((m) => ({ default: m.NewPasswordPage }))),
  },
  { path: '/invite', lazy: lazyPage(() => import('./features/team/pages/AcceptInvitePage')) },
  { path: '/billing', element: <Navigate to="/homepage/billing" replace /> },
  {
    path: '/homepage',
    lazy: lazyPage(() => import('./shell/Shell').then((m) => ({ default: m.RequireAuth }))),
    children: [
      { index: true, element: <Navigate to="timesheet" replace /> },
      {
        path: 'timesheet',
        lazy: lazyPage(() =>
          import('./features/timesheet/pages/TimesheetPage').then((m) => ({ default: m.TimesheetPage })),
        ),
      },
      {
        path: 'dashboard',
        ...soon("Your workspace's real numbers and charts, and the desktop agent, are being built."),
      },
      {
        path: 'projects',
        lazy: lazyPage(() => import('./features/projects/pages/ProjectsPage')),
      },
      { path: 'tags', lazy: lazyPage(() => import('./features/tags/pages/TagsPage')) },
      { path: 'user', lazy: lazyPage(() => import('./features/team/pages/UsersPage')) },
      { path: 'attendance', ...soon('Attendance is being built.') },
      { path: 'billing', ...soon('Plans, licenses and checkout are being built.') },
      { path: 'invoice', ...soon('Invoices are being built.') },
      { path: 'billingaddress', ...soon('The billing address form is being built.') },
      { path: 'subscription', ...soon('The invoice information step of checkout is being built.') },
      { path: 'payment', ...soon('Card payment is being built.') },
      { path: 'addtask', element: <Navigate to="/homepage/projects" replace /> },
      { path: 'addproject', element: <Navigate to="/homepage/projects" replace /> },
      { path: 'tab', element: <Navigate to="/homepage/profile" replace /> },
      {
        path: 'profile',
        lazy: lazyPage(() => import('./features/profile/pages/ProfilePage').then((m) => ({ default: m.ProfilePage }))),
      },
      ...REPORT_SECTIONS.flatMap((s) => s.items).map((item) => ({
        path: item.path.replace('/homepage/', ''),
        ...soon(`The ${item.label} report is being built.`),
      })),
      ...COMPUTER_TIME_ITEMS.map((item) => ({
        path: item.path.replace('/homepage/', ''),
        ...soon(`${item.label}, fed by the desktop activity agent, is being built.`),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter(routes.map((route) => ({ HydrateFallback: NothingYet, ...route })));
