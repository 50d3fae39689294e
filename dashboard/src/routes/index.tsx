/** `/`: the marketing home page comes later (issue on the public site); until then, the dashboard. */
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/main' });
  },
});
