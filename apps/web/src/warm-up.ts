import type { QueryClient } from '@tanstack/react-query';
import { meQuery } from './api/session';
import { APP_ROUTES } from './routes';

const routeOf = (path: string) => APP_ROUTES.find((route) => route.path === path.split(/[?#]/)[0]);

/**
 * Loads the code of the signed-in shell and of the page `path` opens, without running it: called
 * by the log-in page while the person types, so the click on "Log in" waits for no script.
 */
export function preloadApp(path: string): void {
  const page = routeOf(path)?.page;
  const quietly = (load: Promise<unknown>) => void load.catch(() => {});
  quietly(import('./shell/Shell'));
  if (page && 'load' in page) quietly(page.load());
  const warm = routeOf(path)?.warm;
  if (warm) quietly(warm());
}

/**
 * Right after signing in: asks who is signed in and, as soon as that answers, the data the page
 * `path` shows first, all under the keys the shell and the page read, so the answers travel while
 * the router mounts them instead of one after the other. Failures are left to the page's own queries.
 */
export function warmUp(queryClient: QueryClient, path: string): void {
  const warm = routeOf(path)?.warm;
  // Both at once, so the page's requests leave the moment /me answers, before React renders it.
  void Promise.all([queryClient.fetchQuery(meQuery), warm?.()])
    .then(([me, module]) => {
      if (me && module) module.default(queryClient, me);
    })
    .catch(() => {});
}
