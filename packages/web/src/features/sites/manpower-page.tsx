import { MANPOWER_DEFAULT, MANPOWER_MAX, MANPOWER_YEAR_MAX, MANPOWER_YEAR_MIN, type ManpowerUpdate } from '@bulwark/domain';
import { Alert, Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { currentLanguage } from '../../i18n/setup.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useManpower, useSiteCommands } from './sites-api.js';

/** Edits typed into the grid, by "siteId:month"; an empty text returns the month to the default. */
type Edits = Record<string, string>;

const cellKey = (siteId: string, month: number) => `${siteId}:${month}`;

/** A typed total: a whole number in range, empty (= back to the default), or a mistake (undefined). */
/** The yearly total stays in view when a narrow screen scrolls the months sideways. */
const STICKY_END = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  whiteSpace: 'nowrap',
} as const;

export function parseTotal(text: string): number | null | undefined {
  const v = text.trim();
  if (v === '') return null;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n <= MANPOWER_MAX ? n : undefined;
}

/** /manpower (admin): sites by months of a chosen year, unset months shown as the default of 100. */
export function ManpowerPage() {
  const { t, i18n } = useTranslation();
  const commands = useSiteCommands();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [edits, setEdits] = useState<Edits>({});
  const form = useFormSubmit();

  const grid = useManpower(year);

  const language = currentLanguage(i18n);
  const monthNames = useMemo(() => {
    const fmt = new Intl.DateTimeFormat(language, { month: 'short', timeZone: 'UTC' });
    return Array.from({ length: 12 }, (_, i) => fmt.format(new Date(Date.UTC(2024, i, 1))));
  }, [language]);
  const years = useMemo(() => {
    const list: string[] = [];
    for (let y = Math.min(thisYear + 1, MANPOWER_YEAR_MAX); y >= Math.max(thisYear - 10, MANPOWER_YEAR_MIN); y -= 1) list.push(String(y));
    return list;
  }, [thisYear]);

  const dirty = Object.keys(edits).length > 0;
  const invalid = Object.entries(edits)
    .filter(([, v]) => parseTotal(v) === undefined)
    .map(([k]) => k);

  async function save() {
    if (!grid.data || invalid.length > 0) return;
    const entries: ManpowerUpdate['entries'] = Object.entries(edits).map(([k, v]) => {
      const [siteId, month] = k.split(':');
      return { site_id: siteId!, month: Number(month), total: parseTotal(v) ?? null };
    });
    await form.run(async () => {
      await commands.saveManpower(year, entries);
      setEdits({});
      notifySuccess(t('sites.manpower.saved'));
    });
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('screen.manpower')}
        description={t('sites.manpower.hint', { count: MANPOWER_DEFAULT })}
        actions={
          <>
            <Select
              aria-label={t('sites.manpower.year')}
              w={120}
              data={years}
              value={String(year)}
              allowDeselect={false}
              disabled={dirty}
              onChange={(v) => v && setYear(Number(v))}
            />
            <Button onClick={() => void save()} loading={form.busy} disabled={!dirty || invalid.length > 0}>
              {t('sites.manpower.save')}
            </Button>
          </>
        }
      />
      {dirty ? (
        <Text size="sm" c="orange.8" role="status">
          {t('sites.manpower.unsaved')}
        </Text>
      ) : null}
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      {grid.isError ? (
        <Alert color="red" role="alert">
          {t('kit.loadFailed')}
        </Alert>
      ) : !grid.data ? (
        <PageLoader />
      ) : grid.data.sites.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed" ta="center">
            {t('sites.manpower.empty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={1000}>
            <Table striped verticalSpacing={4} horizontalSpacing="xs" style={{ opacity: grid.isFetching ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th miw={160}>{t('sites.manpower.site')}</Table.Th>
                  {monthNames.map((m) => (
                    <Table.Th key={m} ta="center">
                      {m}
                    </Table.Th>
                  ))}
                  <Table.Th ta="right" style={STICKY_END}>
                    {t('sites.manpower.yearlyTotal')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {grid.data.sites.map((s) => {
                  let total = 0;
                  const cells = s.months.map((value, i) => {
                    const key = cellKey(s.site_id, i + 1);
                    const typed = edits[key];
                    const parsed = typed === undefined ? value : parseTotal(typed);
                    total += parsed === null ? MANPOWER_DEFAULT : (parsed ?? 0);
                    const isDefault = typed === undefined ? !s.set[i] : parsed === null;
                    return (
                      <Table.Td key={key} p={2}>
                        <TextInput
                          size="xs"
                          inputMode="numeric"
                          aria-label={t('sites.manpower.cellLabel', { site: s.name, month: monthNames[i] })}
                          value={typed ?? (s.set[i] ? String(value) : '')}
                          placeholder={String(MANPOWER_DEFAULT)}
                          title={isDefault ? t('sites.manpower.defaultValue') : undefined}
                          error={invalid.includes(key) ? true : undefined}
                          onChange={(e) => {
                            const next = e.currentTarget.value;
                            setEdits((prev) => {
                              const copy = { ...prev };
                              const original = s.set[i] ? String(value) : '';
                              if (next === original) delete copy[key];
                              else copy[key] = next;
                              return copy;
                            });
                          }}
                          styles={{ input: { textAlign: 'right', minWidth: 56 } }}
                        />
                      </Table.Td>
                    );
                  });
                  return (
                    <Table.Tr key={s.site_id}>
                      <Table.Td>
                        <Group gap={6} wrap="wrap">
                          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                            {s.name}
                          </Text>
                          {!s.is_active ? (
                            <Badge size="xs" color="gray" variant="light">
                              {t('sites.manpower.inactive')}
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      {cells}
                      <Table.Td ta="right" fw={600} style={STICKY_END}>
                        {total.toLocaleString(language)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {invalid.length > 0 ? (
        <Text size="sm" c="red" role="alert">
          {t('sites.validation.manpower')}
        </Text>
      ) : null}
    </Stack>
  );
}
