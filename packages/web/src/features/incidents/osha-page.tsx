import { Button, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useServices } from '../../app/services.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import classes from '../../ui/print-report.module.css';
import { useIncidentFormData, useOsha300, useOshaDownloads } from './incidents-api.js';
import { Osha300Log, Osha300ASummary, Osha301Report } from './osha-forms.js';

const FORMS = ['300', '300a', '301'] as const;
type OshaForm = (typeof FORMS)[number];

/**
 * /incidents/osha: the OSHA 300 log of a site (establishment) and year, its 300A summary and the 301
 * report of each case, each printable and downloadable as PDF and Excel. Site, year, form and case live
 * in the address.
 */
export function OshaPage() {
  const { t } = useTranslation();
  const services = useServices();
  const { search } = useLocation();
  const navigate = useNavigate();
  const formData = useIncidentFormData();
  const q = new URLSearchParams(search);
  const sites = formData.data?.sites ?? [];
  const thisYear = new Date(services.now()).getUTCFullYear();
  const siteId = sites.some((s) => s.id === q.get('site_id')) ? q.get('site_id') : (sites[0]?.id ?? null);
  const yearParam = Number(q.get('year'));
  const year = Number.isInteger(yearParam) && yearParam >= 2000 && yearParam <= thisYear ? yearParam : thisYear;
  const form: OshaForm = (FORMS as readonly string[]).includes(q.get('form') ?? '') ? (q.get('form') as OshaForm) : '300';
  const caseKey = q.get('case');
  const log = useOsha300(siteId, year);
  const downloads = useOshaDownloads();
  const [busy, setBusy] = useState<string | null>(null);

  const go = (change: Record<string, string | null>) => {
    const next = new URLSearchParams({
      ...(siteId ? { site_id: siteId } : {}),
      year: String(year),
      form,
      ...(caseKey ? { case: caseKey } : {}),
    });
    for (const [k, v] of Object.entries(change)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    void navigate(`/incidents/osha?${next.toString()}`, { replace: true });
  };
  const run = async (name: string, action: () => Promise<void>) => {
    setBusy(name);
    try {
      await action();
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setBusy(null);
    }
  };

  const rows = log.data?.rows ?? [];
  const picked = rows.find((r) => `${r.incident_id}:${r.victim_id}` === caseKey) ?? rows[0] ?? null;
  const years = Array.from({ length: 6 }, (_, i) => String(thisYear - i));

  if (formData.isPending) return <PageLoader />;

  const downloadsFor = () => {
    if (!siteId) return null;
    if (form === '301') {
      if (!picked) return null;
      return {
        pdf: () => downloads.report.pdf(picked.incident_id, picked.victim_id),
        excel: () => downloads.report.excel(picked.incident_id, picked.victim_id),
      };
    }
    const d = form === '300' ? downloads.log : downloads.summary;
    return { pdf: () => d.pdf(siteId, year), excel: () => d.excel(siteId, year) };
  };
  const current = downloadsFor();

  return (
    <Stack gap="sm">
      <div className={classes.noPrint}>
        <PageHeader
          title={t('screen.incidentsOsha')}
          description={t('incidentsWeb.osha.intro')}
          actions={
            <Button component={Link} to="/incidents" variant="default">
              {t('incidentsWeb.list.backToList')}
            </Button>
          }
        />
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('incidentsWeb.osha.establishment')}
            w={{ base: '100%', xs: 260 }}
            allowDeselect={false}
            searchable
            data={sites.map((s) => ({ value: s.id, label: s.name }))}
            value={siteId}
            onChange={(v) => go({ site_id: v, case: null })}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('incidentsWeb.osha.year')}
            w={{ base: '100%', xs: 120 }}
            allowDeselect={false}
            data={years}
            value={String(year)}
            onChange={(v) => go({ year: v, case: null })}
            comboboxProps={{ withinPortal: true }}
          />
          <Group gap="xs" wrap="wrap">
            <Button variant="default" onClick={() => window.print()} disabled={!current}>
              {t('incidentsWeb.report.print')}
            </Button>
            <Button variant="default" loading={busy === 'pdf'} disabled={!current} onClick={() => current && void run('pdf', current.pdf)}>
              {t('incidentsWeb.report.downloadPdf')}
            </Button>
            <Button
              variant="default"
              loading={busy === 'excel'}
              disabled={!current}
              onClick={() => current && void run('excel', current.excel)}
            >
              {t('kit.exportExcel')}
            </Button>
          </Group>
        </Group>
        <Tabs value={form} onChange={(v) => go({ form: v ?? '300' })} mt="sm">
          <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
            {FORMS.map((f) => (
              <Tabs.Tab key={f} value={f} style={{ whiteSpace: 'nowrap' }}>
                {t(`incidentsWeb.osha.tabs.${f}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </div>
      {!siteId ? (
        <Text c="dimmed">{t('incidentsWeb.osha.noSites')}</Text>
      ) : form === '300' ? (
        <Osha300Log query={log} />
      ) : form === '300a' ? (
        <Osha300ASummary siteId={siteId} year={year} />
      ) : (
        <Stack gap="sm">
          {rows.length > 0 ? (
            <Select
              className={classes.noPrint}
              label={t('incidentsWeb.osha.case')}
              w={{ base: '100%', xs: 360 }}
              allowDeselect={false}
              data={rows.map((r) => ({
                value: `${r.incident_id}:${r.victim_id}`,
                label: `${r.case_number} · ${r.privacy_case ? t('incidents.privacyCase') : (r.employee_name ?? '')} · ${r.incident_serial}`,
              }))}
              value={picked ? `${picked.incident_id}:${picked.victim_id}` : null}
              onChange={(v) => go({ case: v })}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {picked ? (
            <Osha301Report id={picked.incident_id} victimId={picked.victim_id} />
          ) : log.isPending ? (
            <PageLoader />
          ) : (
            <Text c="dimmed">{t('incidents.osha.log.empty')}</Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
