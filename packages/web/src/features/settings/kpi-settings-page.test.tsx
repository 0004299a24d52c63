import { catalogs, KPI_DEFAULTS, type KpiSettings } from '@bulwark/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import { renderWithServices } from '../../../test/render-with-services.js';
import { KpiSettingsPage } from './kpi-settings-page.js';

const en = catalogs.en;
const YEAR = new Date().getFullYear();
const DEFAULTS: KpiSettings = { year: YEAR, is_default: true, updated_at: null, ...KPI_DEFAULTS };

function renderPage(http: Partial<HttpClient>) {
  renderWithServices(<KpiSettingsPage />, http);
}

describe('the KPI settings page', () => {
  it("loads the year's targets and saves them through the settings contract", async () => {
    const get = vi.fn().mockResolvedValue(DEFAULTS);
    const put = vi.fn().mockResolvedValue({ ...DEFAULTS, is_default: false, updated_at: '2026-01-01T00:00:00.000Z', ltifr_target: 0.5 });
    renderPage({ get, put });

    const ltifr = await screen.findByLabelText(new RegExp(`^${en.settings.kpi.fields.ltifr_target}`), {}, { timeout: 4000 });
    expect(get).toHaveBeenCalledWith(`/api/kpi_settings?year=${YEAR}`, expect.objectContaining({ mode: 'secured' }));
    expect(screen.getByText(en.settings.kpi.isDefault)).toBeDefined();

    fireEvent.change(ltifr, { target: { value: '0.5' } });
    fireEvent.click(screen.getByRole('button', { name: en.settings.kpi.save }));

    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith(
      `/api/kpi_settings?year=${YEAR}`,
      { ...KPI_DEFAULTS, ltifr_target: 0.5 },
      expect.objectContaining({ mode: 'secured', notify: false }),
    );
    // The form shows what the server stored: no longer the defaults.
    await waitFor(() => expect(screen.queryByText(en.settings.kpi.isDefault)).toBeNull());
  }, 15_000);

  it('refuses a percentage above 100 before sending', async () => {
    const get = vi.fn().mockResolvedValue(DEFAULTS);
    const put = vi.fn();
    renderPage({ get, put });

    const critical = await screen.findByLabelText(
      new RegExp(`^${en.settings.kpi.fields.critical_closure_rate_target.replace(/[()%]/g, '.')}`),
      {},
      {
        timeout: 4000,
      },
    );
    fireEvent.change(critical, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: en.settings.kpi.save }));

    expect(await screen.findByText(en.settings.validation.percent)).toBeDefined();
    expect(put).not.toHaveBeenCalled();
  }, 15_000);
});

describe('the action rules on the settings page', () => {
  it('shows that closing needs another person by default, and turns the rule off through the settings contract', async () => {
    const get = vi.fn().mockImplementation(async (path: string) => (path === '/api/action_settings' ? { close_by_other: true } : DEFAULTS));
    const put = vi.fn().mockResolvedValue({ close_by_other: false });
    renderPage({ get, put });

    const rule = await screen.findByRole('switch', { name: new RegExp(`^${en.settings.actionRules.closeByOther}`) }, { timeout: 4000 });
    await waitFor(() => expect((rule as HTMLInputElement).checked).toBe(true));
    await waitFor(() => expect((rule as HTMLInputElement).disabled).toBe(false));
    expect(screen.getByText(en.settings.actionRules.closeByOtherHint)).toBeTruthy();

    fireEvent.click(rule);
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith('/api/action_settings', { close_by_other: false }, expect.objectContaining({ notify: false })),
    );
    await waitFor(() => expect((rule as HTMLInputElement).checked).toBe(false));
  });
});
