import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled page with a short explanation: the frame of the information screens. */
export function PageMessage({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Stack maw={720} gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md" align="flex-start">
          <Text>{children}</Text>
          {action}
        </Stack>
      </Paper>
    </Stack>
  );
}
