import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rowKey, type PersonRow } from './form-model.js';
import { PeoplePicker } from './people-picker.js';

type Props = { rows: PersonRow[]; onChange: (rows: PersonRow[]) => void; errors: Record<string, string>; disabled?: boolean };

/** The people spoken with: members picked from the organisation, or names typed for contractors and visitors. */
export function PeopleRows({ rows, onChange, errors, disabled }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const chosen = rows.map((r) => r.user?.id).filter((x): x is string => !!x);
  const addName = () => {
    const v = name.trim();
    if (!v) return;
    onChange([...rows, { key: rowKey(), user: null, name: v }]);
    setName('');
  };
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        {t('safetyInteractions.fields.people')}
      </Text>
      {errors['participants'] ? (
        <Text c="red" size="sm" role="alert">
          {errors['participants']}
        </Text>
      ) : null}
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('safetyInteractions.form.noPeople')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((r, i) => {
            const label = r.user?.full_name ?? r.name;
            const error = errors[`participants.${i}`] ?? errors[`participants.${i}.user_id`] ?? errors[`participants.${i}.name`];
            return (
              <Paper key={r.key} component="li" withBorder px="sm" py={4} radius="sm">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {label}
                  </Text>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    disabled={disabled}
                    onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
                    aria-label={t('safetyInteractions.form.removePerson', { name: label })}
                  >
                    {t('safetyInteractions.form.remove')}
                  </Button>
                </Group>
                {error ? (
                  <Text c="red" size="xs" role="alert">
                    {error}
                  </Text>
                ) : null}
              </Paper>
            );
          })}
        </Stack>
      )}
      <Group align="flex-end" gap="xs" wrap="wrap">
        <div style={{ flex: '1 1 220px' }}>
          <PeoplePicker
            key={rows.length}
            label={t('safetyInteractions.form.addMember')}
            value={null}
            exclude={chosen}
            onChange={(_, person) => person && onChange([...rows, { key: rowKey(), user: person, name: '' }])}
          />
        </div>
      </Group>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label={t('safetyInteractions.form.addName')}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addName();
            }
          }}
          style={{ flex: '1 1 220px' }}
          disabled={disabled}
        />
        <Button variant="light" onClick={addName} disabled={disabled || !name.trim()}>
          {t('safetyInteractions.form.addNameButton')}
        </Button>
      </Group>
    </Stack>
  );
}
