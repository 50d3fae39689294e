/** The root route: the router context (the query client) and the outlet. */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, redirect } from '@tanstack/react-router';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  // Spec 001 §2: any other path redirects to the home page; until the marketing site lands that is /main.
  notFoundComponent: () => {
    throw redirect({ to: '/main' });
  },
});
