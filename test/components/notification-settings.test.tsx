// @vitest-environment happy-dom
/**
 * The notification settings on /gestion (issue 27 §1) against a fake of the plugin's routes:
 * a toggle shows at once, before the server answers; a save that fails puts back that toggle only
 * (a later one, saved, stays) and says so in Spanish; the Telegram and push columns are off with
 * their reasons until the owner links Telegram / the operator sets up push; the mails' language is
 * saved as a partial `PUT`. And the in-page alerts: a `notification` of the stream shows as a card
 * in the live region with its link.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationAlerts } from '../../dashboard/src/components/NotificationAlerts.tsx';
import { NotificationSettings } from '../../dashboard/src/components/NotificationSettings.tsx';
import { i18n } from '../../dashboard/src/i18n/index.ts';
import { FakeEventSource, FakeFetch, installNetwork, json, renderApp, spanish } from './harness.tsx';

const ROUTES = ['email', 'telegram', 'push', 'page'] as const;
const KINDS = ['new_conversation', 'asks_person', 'booking_new', 'booking_changed', 'days_running_out'];

/** The settings the fake server holds (all on), as `GET /api/notifications/settings` answers. */
function serverState(over: { telegramLinked?: boolean; pushAvailable?: boolean } = {}) {
  return {
    language: 'es',
    events: Object.fromEntries(KINDS.map((k) => [k, Object.fromEntries(ROUTES.map((r) => [r, true]))])),
    telegramLinked: over.telegramLinked ?? false,
    pushAvailable: over.pushAvailable ?? false,
  };
}

/** Renders `ui` inside a memory router (the screen has links into the app). */
function withRouter(ui: () => ReactNode) {
  const router = createRouter({
    routeTree: createRootRoute({ component: ui }),
    history: createMemoryHistory({ initialEntries: ['/gestion'] }),
  });
  return renderApp(<RouterProvider router={router} />);
}

const t = (key: string) => i18n.t(key);
const group = (kind: string) => screen.findByRole('group', { name: t(`notifications.events.${kind}.title`) });
const box = async (kind: string, route: string) =>
  within(await group(kind)).getByRole('checkbox', { name: t(`notifications.routes.${route}`) });

describe('the notification settings', () => {
  let api: FakeFetch;
  let state: ReturnType<typeof serverState>;
  beforeEach(async () => {
    await spanish();
    api = new FakeFetch();
    state = serverState();
    api.on('GET', /^\/api\/notifications\/settings$/, () => json(200, state));
    installNetwork(api);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a toggle before the answer, and puts back only the one whose save failed', async () => {
    const answers: Array<(status: number) => void> = [];
    api.on('PUT', /^\/api\/notifications\/settings$/, (req) => {
      return new Promise((resolve) => {
        answers.push((status) => {
          if (status !== 200) return resolve(json(status, { error: 'no' }));
          const patch = req.body as { events?: Record<string, Record<string, boolean>> };
          for (const [k, routes] of Object.entries(patch.events ?? {}))
            Object.assign(state.events[k] as object, routes);
          resolve(json(200, state));
        });
      });
    });
    withRouter(() => <NotificationSettings />);
    const first = await box('booking_new', 'email');
    const second = await box('asks_person', 'page');
    expect(first).toHaveProperty('checked', true);

    fireEvent.click(first);
    fireEvent.click(second);
    // Both show off before the server has answered.
    await waitFor(() => expect(answers).toHaveLength(2));
    expect(first).toHaveProperty('checked', false);
    expect(second).toHaveProperty('checked', false);
    expect(api.seen('PUT', /settings/).map((r) => r.body)).toEqual([
      { events: { booking_new: { email: false } } },
      { events: { asks_person: { page: false } } },
    ]);

    answers[0]?.(500);
    expect(await screen.findByText(t('notifications.saveError'))).toBeTruthy();
    await waitFor(() => expect(first).toHaveProperty('checked', true));
    expect(second).toHaveProperty('checked', false);
    answers[1]?.(200);
    await waitFor(() => expect(state.events.asks_person?.page).toBe(false));
    expect(await box('asks_person', 'page')).toHaveProperty('checked', false);
    expect(await box('booking_new', 'email')).toHaveProperty('checked', true);
  });

  it('turns the Telegram and push columns off with their reasons, and saves the language', async () => {
    api.on('PUT', /^\/api\/notifications\/settings$/, (req) => {
      Object.assign(state, req.body);
      return json(200, state);
    });
    withRouter(() => <NotificationSettings />);
    const telegram = await box('new_conversation', 'telegram');
    expect(telegram).toHaveProperty('disabled', true);
    expect(telegram.getAttribute('aria-describedby')).toBe('notify-telegram-note');
    expect(document.getElementById('notify-telegram-note')?.textContent).toContain(
      t('notifications.telegramNote'),
    );
    expect(screen.getByRole('link', { name: t('notifications.telegramLink') }).getAttribute('href')).toBe(
      '/usuarios-conversaciones',
    );
    expect(await box('new_conversation', 'push')).toHaveProperty('disabled', true);
    expect(screen.getByText(t('notifications.pushUnavailable'), { exact: false })).toBeTruthy();
    expect(await box('new_conversation', 'email')).toHaveProperty('disabled', false);
    // Only the seven languages, and a change is a partial PUT.
    const select = screen.getByLabelText(t('notifications.language')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['es', 'en', 'fr', 'de', 'it', 'ru', 'hi']);
    fireEvent.change(select, { target: { value: 'de' } });
    await waitFor(() => expect(api.seen('PUT', /settings/).map((r) => r.body)).toEqual([{ language: 'de' }]));
    await waitFor(() => expect(select.value).toBe('de'));
  });

  it('turns both columns on once Telegram is linked and push is set up', async () => {
    state = serverState({ telegramLinked: true, pushAvailable: true });
    withRouter(() => <NotificationSettings />);
    expect(await box('booking_changed', 'telegram')).toHaveProperty('disabled', false);
    expect(await box('booking_changed', 'push')).toHaveProperty('disabled', false);
    expect(screen.queryByText(t('notifications.pushUnavailable'), { exact: false })).toBeNull();
    expect(document.getElementById('notify-telegram-note')).toBeNull();
  });
});

describe('the in-page alerts', () => {
  beforeEach(async () => {
    await spanish();
    installNetwork(new FakeFetch());
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each alert of the stream once, in the live region, with its link', async () => {
    withRouter(() => <NotificationAlerts />);
    await waitFor(() =>
      expect(FakeEventSource.opened.map((s) => s.url)).toContain('/api/notifications/stream'),
    );
    const alert = {
      id: '41',
      kind: 'asks_person',
      chatbotId: 'bot-1',
      title: 'Bar Pepe: un seguidor pide una persona',
      body: 'Un seguidor pide hablar con una persona: «quiero hablar con alguien»',
      url: '/usuarios-conversaciones?chatbotId=bot-1&channel=web&userId=v1',
      at: new Date().toISOString(),
    };
    await FakeEventSource.emit('/api/notifications/stream', 'notification', alert);
    await FakeEventSource.emit('/api/notifications/stream', 'notification', alert);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(within(region).getAllByText(alert.title)).toHaveLength(1);
    expect(within(region).getByText(alert.body)).toBeTruthy();
    expect(
      within(region)
        .getByRole('link', { name: t('notifications.alerts.open') })
        .getAttribute('href'),
    ).toBe(alert.url);
    fireEvent.click(within(region).getByRole('button', { name: t('notifications.alerts.dismiss') }));
    await waitFor(() => expect(within(region).queryByText(alert.title)).toBeNull());
  });
});
