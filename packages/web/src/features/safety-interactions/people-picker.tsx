import type { SiPerson } from '@bulwark/domain';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiPeople } from './safety-interactions-api.js';

type Person = SiPerson & { email?: string };

type Props = {
  label: string;
  value: string | null;
  /** The chosen person as the server last named them, so the label shows before any search. */
  current?: SiPerson | null;
  onChange: (id: string | null, person: SiPerson | null) => void;
  error?: string;
  required?: boolean;
  placeholder?: string;
  /** Members already chosen elsewhere, left out of the options. */
  exclude?: readonly string[];
};

/** Picks an active member of the organisation, searching on the server as the person types. */
export function PeoplePicker({ label, value, current, onChange, error, required, placeholder, exclude = [] }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [settled] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<Person | null>(current ?? null);
  const { data, isFetching } = useSiPeople(settled);
  const options = useMemo(() => {
    const list: Person[] = (data?.users ?? []).filter((u) => !exclude.includes(u.id) || u.id === value);
    const known = picked?.id === value ? picked : current?.id === value ? current : null;
    if (known && !list.some((u) => u.id === known.id)) list.unshift(known);
    return list;
  }, [data, picked, current, value, exclude]);
  return (
    <Select
      label={label}
      placeholder={placeholder ?? t('safetyInteractions.form.memberSearch')}
      searchable
      clearable={!required}
      withAsterisk={required}
      data={options.map((u) => ({ value: u.id, label: u.email && u.email !== u.full_name ? `${u.full_name} (${u.email})` : u.full_name }))}
      value={value}
      onChange={(id) => {
        const person = options.find((u) => u.id === id) ?? null;
        setPicked(person);
        onChange(id, person ? { id: person.id, full_name: person.full_name } : null);
      }}
      onSearchChange={setSearch}
      filter={({ options: items }) => items}
      nothingFoundMessage={isFetching ? t('common.loading') : t('kit.noResults')}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
