import type { SiteUserSummary } from '@bulwark/domain';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userLabel, useUserOptions } from './sites-api.js';

type Props = {
  label: string;
  value: string | null;
  /** The chosen person as the server last described them, so the label shows before any search. */
  current?: SiteUserSummary | null;
  onChange: (id: string | null) => void;
  error?: string;
  required?: boolean;
};

/** Picks an active user of the organisation, searching on the server as the person types. */
export function UserPicker({ label, value, current, onChange, error, required }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [settled] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<SiteUserSummary | null>(current ?? null);
  const { data, isFetching } = useUserOptions(settled);
  const options = useMemo(() => {
    const list = [...(data?.users ?? [])];
    const known = picked?.id === value ? picked : current?.id === value ? current : null;
    if (known && !list.some((u) => u.id === known.id)) list.unshift(known);
    return list;
  }, [data, picked, current, value]);
  return (
    <Select
      label={label}
      placeholder={t('sites.form.userSearch')}
      searchable
      clearable={!required}
      withAsterisk={required}
      data={options.map((u) => ({ value: u.id, label: userLabel(u) }))}
      value={value}
      onChange={(id) => {
        setPicked(options.find((u) => u.id === id) ?? null);
        onChange(id);
      }}
      onSearchChange={setSearch}
      filter={({ options: items }) => items}
      nothingFoundMessage={isFetching ? t('common.loading') : t('kit.noResults')}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
