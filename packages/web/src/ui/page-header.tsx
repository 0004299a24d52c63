import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The top of every screen: its title (the one h1), an optional line of help, and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" mb="md" wrap="wrap">
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 240px' }}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? (
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      ) : null}
    </Group>
  );
}
