import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../../lib/types';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';
import { checkRules, rulesFormValues, toRuleNumber } from './rulesForm';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

const admin = makeUser('admin');

describe('rules form values', () => {
  it('turns non-numeric input into 0', () => {
    expect(toRuleNumber('abc')).toBe(0);
    expect(toRuleNumber('')).toBe(0);
    expect(toRuleNumber('2.5')).toBe(2.5);
    expect(toRuleNumber('0,5')).toBe(0.5);
  });

  it('checks bounds and steps', () => {
    const base = rulesFormValues(makeSettings());
    expect(checkRules(base).ok).toBe(true);
    const bad = checkRules({
      ...base,
      pointsPerPeso: '0.0015',
      redemptionRate: '0',
      campaignMultiplier: '1.2',
      birthdayBonusMultiplier: '1.25',
      inactivityDays: '36501',
    });
    expect(bad.ok ? {} : Object.fromEntries(Object.entries(bad.problems).map(([k, v]) => [k, v.kind]))).toEqual({
      pointsPerPeso: 'step',
      redemptionRate: 'range',
      campaignMultiplier: 'step',
      birthdayBonusMultiplier: 'step',
      inactivityDays: 'range',
    });
    expect(checkRules({ ...base, campaignMultiplier: '2.5', firstPurchaseBonusMultiplier: '1.3', pointsPerPeso: '0.013' }).ok).toBe(true);
  });

  it('takes velocity limits as whole numbers from 0, which is no limit', () => {
    const base = rulesFormValues(makeSettings());
    expect(base.maxAccreditationsPerCustomerPerDay).toBe('0');
    const bad = checkRules({ ...base, maxAccreditationsPerCustomerPerDay: '-1', maxPointsPerCustomerPerDay: '2,5' });
    expect(bad.ok ? {} : Object.fromEntries(Object.entries(bad.problems).map(([k, v]) => [k, v.kind]))).toEqual({
      maxAccreditationsPerCustomerPerDay: 'range',
      maxPointsPerCustomerPerDay: 'step',
    });
    const good = checkRules({ ...base, maxAccreditationsPerCustomerPerDay: '3', maxPointsPerCustomerPerDay: '5000' });
    expect(good.ok && good.update).toMatchObject({ maxAccreditationsPerCustomerPerDay: 3, maxPointsPerCustomerPerDay: 5000 });
  });

  it('takes the alert threshold as a whole number of operations from 0 (off) to 1,000', () => {
    const base = rulesFormValues(makeSettings());
    expect(base.alertOperationsPerDay).toBe('5');
    const kinds = (check: ReturnType<typeof checkRules>) =>
      check.ok ? {} : Object.fromEntries(Object.entries(check.problems).map(([k, v]) => [k, v.kind]));
    expect(kinds(checkRules({ ...base, alertOperationsPerDay: '1001' }))).toEqual({ alertOperationsPerDay: 'range' });
    expect(kinds(checkRules({ ...base, alertOperationsPerDay: '-1' }))).toEqual({ alertOperationsPerDay: 'range' });
    expect(kinds(checkRules({ ...base, alertOperationsPerDay: '2,5' }))).toEqual({ alertOperationsPerDay: 'step' });
    const good = checkRules({ ...base, alertOperationsPerDay: '0' });
    expect(good.ok && good.update).toMatchObject({ alertOperationsPerDay: 0 });
  });
});

describe('rules screen', () => {
  let user: ReturnType<typeof userEvent.setup>;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  function serve(settings: Settings, extra: Record<string, MockHandler> = {}) {
    let current = settings;
    return mockApi({
      ...tenantRoutes(settings),
      'GET /api/settings': () => ({ body: current }),
      'POST /api/settings': ({ body }) => {
        current = { ...current, ...(body as Partial<Settings>) };
        return { body: current };
      },
      ...extra,
    });
  }

  /** Checks that a message that hides itself is still there just before `ms` and gone just after. */
  function expectShownFor(ms: number, find: () => HTMLElement | null) {
    act(() => {
      vi.advanceTimersByTime(ms - 100);
    });
    expect(find()).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(find()).not.toBeInTheDocument();
  }

  /** Confirms the irreversible run in its dialog. */
  async function confirmExpiration() {
    const dialog = screen.getByRole('alertdialog', { name: '¿Ejecutar el vencimiento de puntos?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sí, vencer los puntos' }));
  }

  async function openRules() {
    renderApp('/settings/rules', { preloadedState: loggedInState(admin) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reglas del programa' })).toBeInTheDocument();
    return screen.findByRole('form', { name: 'Reglas del programa' });
  }

  it('shows each setting with its bounds and steps', async () => {
    serve(makeSettings());
    const form = await openRules();
    const field = (name: RegExp) => within(form).getByRole('textbox', { name });
    // Rates read with the language's decimal comma, and the hints give the bounds and steps.
    expect(field(/Puntos por peso/)).toHaveValue('0,01');
    expect(field(/Puntos por peso/)).toHaveAccessibleDescription(/0,001/);
    expect(field(/Tasa de redención/)).toHaveValue('100');
    expect(field(/Multiplicador de campaña/)).toHaveAccessibleDescription(/0,5/);
  });

  it('shows the days and multipliers only when their policy or bonus is chosen, and explains calendar', async () => {
    serve(makeSettings());
    const form = await openRules();
    const policy = within(form).getByRole('combobox', { name: 'Política de vencimiento' });
    const days = () => within(form).queryByRole('textbox', { name: 'Días de vigencia de cada lote' });
    const inactivity = () => within(form).queryByRole('textbox', { name: 'Días de inactividad' });
    expect(days()).toBeNull();
    expect(inactivity()).toBeNull();

    await user.selectOptions(policy, 'fifo');
    expect(days()).toHaveValue('365');
    expect(inactivity()).toBeNull();

    await user.selectOptions(policy, 'inactivity');
    expect(days()).toBeNull();
    expect(inactivity()).toHaveValue('180');

    await user.selectOptions(policy, 'calendar');
    expect(days()).toBeNull();
    expect(inactivity()).toBeNull();
    expect(within(form).getByTestId('policy-explanation')).toHaveTextContent('vencen al terminar el año siguiente');

    const birthday = () => within(form).queryByRole('textbox', { name: 'Multiplicador de cumpleaños' });
    expect(birthday()).toBeNull();
    await user.click(within(form).getByRole('checkbox', { name: 'Bono de cumpleaños' }));
    expect(birthday()).toHaveAccessibleDescription(/0,1/);
    expect(within(form).queryByRole('textbox', { name: 'Multiplicador de primera compra' })).toBeNull();
    await user.click(within(form).getByRole('checkbox', { name: 'Bono de primera compra' }));
    expect(within(form).getByRole('textbox', { name: 'Multiplicador de primera compra' })).toBeInTheDocument();
  });

  it('saves the rules (not the permissions) and shows the saved message for 3 s', async () => {
    const server = serve(makeSettings({ supervisor: ['/main'], cajero: [] }));
    const form = await openRules();
    const campaign = within(form).getByRole('textbox', { name: /Multiplicador de campaña/ });
    await user.clear(campaign);
    await user.type(campaign, '2');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Política de vencimiento' }), 'fifo');
    const days = within(form).getByRole('textbox', { name: /Días de vigencia/ });
    await user.clear(days);
    await user.type(days, '90');
    await user.click(within(form).getByRole('button', { name: 'Guardar reglas' }));

    expect(await within(form).findByTestId('settings-saved')).toHaveTextContent('Configuración guardada.');
    const body = server.requests.find((r) => r.method === 'POST')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ campaignMultiplier: 2, expirationPolicy: 'fifo', pointsExpirationDays: 90, pointsPerPeso: 0.01 });
    expect(body).not.toHaveProperty('rolePermissions');

    expectShownFor(3000, () => within(form).queryByTestId('settings-saved'));
  });

  it('refuses values out of bounds or off-step, naming the problem', async () => {
    const server = serve(makeSettings());
    const form = await openRules();
    const campaign = within(form).getByRole('textbox', { name: /Multiplicador de campaña/ });
    await user.clear(campaign);
    await user.type(campaign, '1.2');
    const rate = within(form).getByRole('textbox', { name: /Tasa de redención/ });
    await user.clear(rate);
    await user.click(within(form).getByRole('button', { name: 'Guardar reglas' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Revisa los valores marcados.');
    expect(campaign).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText('Multiplicador de campaña: debe ir en pasos de 0,5.')).toBeInTheDocument();
    // An empty (non-numeric) rate counts as 0, below its minimum.
    expect(within(form).getByText('Tasa de redención: debe estar entre 1 y 1.000.000.')).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it("runs point expiration: 'Ejecutando...' disabled while running, then the result for 5 s", async () => {
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    serve(makeSettings(), {
      'POST /api/tasks/expire-points': async () => {
        await done;
        return { body: { message: 'Expired 1200 points from 3 customers.' } };
      },
    });
    await openRules();
    const card = screen.getByRole('region', { name: 'Mantenimiento' });
    await user.click(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' }));
    await confirmExpiration();
    const running = await within(card).findByRole('button', { name: 'Ejecutando...' });
    expect(running).toBeDisabled();
    finish();
    const result = await within(card).findByTestId('expiration-result');
    expect(result).toHaveTextContent('Vencimiento de puntos ejecutado.');
    expect(result).toHaveTextContent('Expired 1200 points from 3 customers.');
    expect(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' })).toBeEnabled();
    expectShownFor(5000, () => within(card).queryByTestId('expiration-result'));
  });

  it('shows an expiration error with the server message', async () => {
    serve(makeSettings(), { 'POST /api/tasks/expire-points': { status: 500, body: { message: 'lock timeout' } } });
    await openRules();
    const card = screen.getByRole('region', { name: 'Mantenimiento' });
    await user.click(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' }));
    await confirmExpiration();
    const result = await within(card).findByRole('alert');
    expect(result).toHaveTextContent('Error al ejecutar el vencimiento de puntos.');
    expect(result).toHaveTextContent('lock timeout');
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' })).toBeEnabled());
  });

  it('runs point expiration only once it is confirmed', async () => {
    const { requests } = serve(makeSettings(), { 'POST /api/tasks/expire-points': { body: { message: 'ok' } } });
    await openRules();
    const card = screen.getByRole('region', { name: 'Mantenimiento' });
    await user.click(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' }));
    const dialog = screen.getByRole('alertdialog', { name: '¿Ejecutar el vencimiento de puntos?' });
    expect(dialog).toHaveTextContent('no se puede deshacer');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/tasks/expire-points')).toBe(false);
    await user.click(within(card).getByRole('button', { name: 'Ejecutar vencimiento de puntos' }));
    await confirmExpiration();
    await within(card).findByTestId('expiration-result');
    expect(requests.filter((r) => r.path === '/api/tasks/expire-points')).toHaveLength(1);
  });
});
