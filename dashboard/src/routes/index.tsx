/**
 * `/` is the marketing home page, which the server renders (plugins/site). A navigation inside the
 * app to `/` loads it from the server instead of rendering an app screen.
 */
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    window.location.assign('/');
  },
});
