import { AUDIT_FREQUENCIES, AUDIT_TYPES, type AuditFormData } from '@bulwark/domain';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type FilterValues = {
  frequency?: string | null;
  site_id: string | null;
  type: string | null;
  from?: string | null;
  to?: string | null;
};

/**
 * The audit filters (spec 001 §2: frequency, site, audit type, date range). Each screen shows the
 * ones it has: `frequency` and the range only where given.
 */
export function AuditFilters<V extends FilterValues>(props: {
  values: V;
  onChange: (change: Partial<V>) => void;
  sites: AuditFormData['sites'] | undefined;
  /** The range is of due dates (lists) or months (trends). */
  range?: 'day' | 'month' | null;
  frequency?: boolean;
  /** The audit type filter (shown unless false). */
  types?: boolean;
  rangeError?: string | null;
}) {
  const { t } = useTranslation();
  const { values: v, onChange } = props;
  const set = (change: Partial<FilterValues>) => onChange(change as Partial<V>);
  const any = Boolean(v.site_id || v.type || v.frequency || v.from || v.to);
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" role="group" aria-label={t('auditsWeb.filters.label')}>
      {props.frequency ? (
        <Select
          label={t('audits.fields.frequency')}
          placeholder={t('auditsWeb.filters.any')}
          clearable
          data={AUDIT_FREQUENCIES.map((f) => ({ value: f, label: t(`audits.frequencies.${f}`) }))}
          value={v.frequency ?? null}
          onChange={(x) => set({ frequency: x })}
          w={{ base: '100%', xs: 160 }}
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      <Select
        label={t('audits.fields.site')}
        placeholder={t('auditsWeb.filters.allSites')}
        clearable
        searchable
        data={(props.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
        value={v.site_id}
        onChange={(x) => set({ site_id: x })}
        w={{ base: '100%', xs: 220 }}
        nothingFoundMessage={t('kit.noResults')}
        comboboxProps={{ withinPortal: true }}
      />
      {props.types === false ? null : (
        <Select
          label={t('audits.fields.type')}
          placeholder={t('auditsWeb.filters.allTypes')}
          clearable
          data={AUDIT_TYPES.map((x) => ({ value: x, label: t(`audits.types.${x}`) }))}
          value={v.type}
          onChange={(x) => set({ type: x })}
          w={{ base: '100%', xs: 170 }}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {props.range ? (
        <>
          <TextInput
            type={props.range === 'month' ? 'month' : 'date'}
            label={props.range === 'month' ? t('auditsWeb.filters.fromMonth') : t('auditsWeb.filters.from')}
            value={v.from ?? ''}
            onChange={(e) => set({ from: e.currentTarget.value || null })}
            w={{ base: 'calc(50% - 4px)', xs: 160 }}
          />
          <TextInput
            type={props.range === 'month' ? 'month' : 'date'}
            label={props.range === 'month' ? t('auditsWeb.filters.toMonth') : t('auditsWeb.filters.to')}
            value={v.to ?? ''}
            onChange={(e) => set({ to: e.currentTarget.value || null })}
            error={props.rangeError ?? undefined}
            w={{ base: 'calc(50% - 4px)', xs: 160 }}
          />
        </>
      ) : null}
      {any ? (
        <Button variant="subtle" onClick={() => set({ frequency: null, site_id: null, type: null, from: null, to: null })}>
          {t('auditsWeb.filters.clear')}
        </Button>
      ) : null}
    </Group>
  );
}
