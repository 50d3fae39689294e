/** The root route: the router context (the query client) and the outlet. */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, redirect } from '@tanstack/react-router';
import { Toaster } from 'sonner';

/** One toast at a time, 5 s by default (spec 000 §9); screens may ask for less. */
function Root() {
  return (
    <>
      <Outlet />
      <Toaster position="top-center" visibleToasts={1} duration={5000} closeButton />
    </>
  );
}

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  // Spec 001 §2: any other path redirects to the home page; until the marketing site lands that is /main.
  notFoundComponent: () => {
    throw redirect({ to: '/main' });
  },
});
