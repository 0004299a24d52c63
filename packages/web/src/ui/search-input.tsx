import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A search box that tells the list only after the person pauses typing (300 ms). */
export function SearchInput({ value, onChange, label }: { value: string; onChange: (value: string) => void; label?: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const settle = useDebouncedCallback((v: string) => onChange(v.trim()), 300);
  return (
    <TextInput
      type="search"
      aria-label={label ?? t('kit.search')}
      placeholder={t('kit.searchPlaceholder')}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        settle(e.currentTarget.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onChange(text.trim());
      }}
      style={{ flex: '1 1 220px', maxWidth: 360 }}
    />
  );
}
