import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

type Props = {
  /** The secret to show; null closes the dialog. */
  secret: string | null;
  title: string;
  warning: string;
  label: string;
  /** A line under the secret (e.g. how to send a token). */
  hint?: string;
  copyLabel: string;
  copiedLabel: string;
  doneLabel: string;
  onDone: () => void;
};

/**
 * A secret the server answers once (an API token, a webhook's signing secret): shown with a copy button
 * and a warning. Only "Done" closes it, not a click beside it or Escape, so it is not lost by a slip.
 */
export function SecretReveal({ secret, title, warning, label, hint, copyLabel, copiedLabel, doneLabel, onDone }: Props) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onDone}
      title={title}
      centered
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      {secret !== null ? (
        <Stack gap="sm">
          <Alert color="yellow" role="alert">
            {warning}
          </Alert>
          <Text size="sm" fw={500} id="secret-reveal-label">
            {label}
          </Text>
          <Code block aria-labelledby="secret-reveal-label" data-secret style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {secret}
          </Code>
          {hint ? (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? copiedLabel : copyLabel}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onDone} data-autofocus>
              {doneLabel}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
