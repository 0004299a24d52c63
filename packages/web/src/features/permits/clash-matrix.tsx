import type { PermitTemplateSummary } from '@bulwark/domain';
import { Box, Checkbox, MultiSelect, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifyError } from '../../app/notify.js';
import { useTemplateCommands } from './permit-templates-api.js';

/** Whether two template types conflict (the server keeps the pair both ways; either side is enough). */
export function conflicts(a: PermitTemplateSummary, b: PermitTemplateSummary): boolean {
  return a.conflict_template_ids.includes(b.id) || b.conflict_template_ids.includes(a.id);
}

/** `ids` with `other` added or taken out. */
export function toggled(ids: readonly string[], other: string, on: boolean): string[] {
  const rest = ids.filter((x) => x !== other);
  return on ? [...rest, other] : rest;
}

/**
 * The clash matrix: which permit types must not share an area and time (two hot works, hot work
 * beside a confined space…). A requester and the approver are warned of a clash. A grid on a wide
 * screen (each pair once, a type with itself on the diagonal); a list per type on a phone.
 */
export function ClashMatrix({ templates, readOnly }: { templates: PermitTemplateSummary[]; readOnly: boolean }) {
  const { t } = useTranslation();
  const commands = useTemplateCommands();
  // The pair being saved shows its new state at once (and goes back if the change is refused).
  const [pending, setPending] = useState<{ key: string; on: boolean } | null>(null);
  const busy = pending !== null;

  async function set(a: PermitTemplateSummary, b: PermitTemplateSummary, on: boolean) {
    setPending({ key: `${a.id}:${b.id}`, on });
    try {
      // Taking a pair out must clear it from both sides, whichever side holds it.
      await commands.update(a.id, { conflict_template_ids: toggled(a.conflict_template_ids, b.id, on) });
      if (!on && b.conflict_template_ids.includes(a.id) && a.id !== b.id)
        await commands.update(b.id, { conflict_template_ids: toggled(b.conflict_template_ids, a.id, false) });
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    } finally {
      setPending(null);
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="clash-matrix">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="clash-matrix">
            {t('permitsWeb.matrix.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('permitsWeb.matrix.help')}
          </Text>
        </div>
        <Box visibleFrom="sm" style={{ overflowX: 'auto' }}>
          <Table withTableBorder withColumnBorders w="auto" aria-label={t('permitsWeb.matrix.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                {templates.map((c) => (
                  <Table.Th key={c.id} ta="center">
                    <Tooltip label={c.name}>
                      <span>{c.prefix}</span>
                    </Tooltip>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {templates.map((r, i) => (
                <Table.Tr key={r.id}>
                  <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                    {r.name}{' '}
                    <Text span c="dimmed" size="xs">
                      ({r.prefix})
                    </Text>
                  </Table.Th>
                  {templates.map((c, j) => (
                    <Table.Td key={c.id} ta="center" bg={j > i ? 'gray.0' : undefined}>
                      {j <= i ? (
                        <Checkbox
                          styles={{ body: { justifyContent: 'center' } }}
                          checked={pending?.key === `${r.id}:${c.id}` ? pending.on : conflicts(r, c)}
                          disabled={readOnly || busy}
                          onChange={(e) => void set(r, c, e.currentTarget.checked)}
                          aria-label={t('permitsWeb.matrix.pair', { a: r.name, b: c.name })}
                        />
                      ) : null}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
        <Stack gap="xs" hiddenFrom="sm">
          {templates.map((r) => (
            <MultiSelect
              key={r.id}
              label={t('permitsWeb.matrix.clashesWith', { name: r.name })}
              placeholder={t('permitsWeb.matrix.none')}
              data={templates.map((c) => ({ value: c.id, label: c.name }))}
              value={templates.filter((c) => conflicts(r, c)).map((c) => c.id)}
              disabled={readOnly || busy}
              onChange={(ids) => {
                const before = templates.filter((c) => conflicts(r, c)).map((c) => c.id);
                const added = ids.find((x) => !before.includes(x));
                const gone = before.find((x) => !ids.includes(x));
                const other = templates.find((c) => c.id === (added ?? gone));
                if (other) void set(r, other, added !== undefined);
              }}
              comboboxProps={{ withinPortal: true }}
            />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
