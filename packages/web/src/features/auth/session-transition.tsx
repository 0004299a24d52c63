import { Center, Loader, Stack, Text } from '@mantine/core';

/** What a page shows while it signs out or resets the session before leaving. */
export function SessionTransition({ label }: { label: string }) {
  return (
    <Center mih="40vh" role="status" aria-live="polite">
      <Stack align="center">
        <Loader />
        <Text>{label}</Text>
      </Stack>
    </Center>
  );
}
