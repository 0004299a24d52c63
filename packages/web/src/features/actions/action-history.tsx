import { ACTION_STATUSES, CONTROL_TYPES, type ActionDetail, type ActionHistoryEntry } from '@bulwark/domain';
import { Text, Timeline } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/setup.js';
import { useActionPeople, useActionSites } from './actions-api.js';
import { formatDay, formatInstant } from './format.js';

/** Field names of a recorded update, as the form labels them. */
const FIELD_LABELS: Record<string, string> = {
  description: 'actions.fields.description',
  control_type: 'actions.fields.controlType',
  responsible_id: 'actions.fields.responsible',
  due_date: 'actions.fields.dueDate',
  category_id: 'actions.fields.category',
  site_id: 'actions.fields.site',
  remarks: 'actions.fields.remarks',
  image_description: 'actions.fields.imageDescription',
};

type Names = { people: Map<string, string>; sites: Map<string, string> };

const isStatus = (v: unknown): v is (typeof ACTION_STATUSES)[number] =>
  typeof v === 'string' && (ACTION_STATUSES as readonly string[]).includes(v);
const isControl = (v: unknown): v is (typeof CONTROL_TYPES)[number] =>
  typeof v === 'string' && (CONTROL_TYPES as readonly string[]).includes(v);
const pair = (v: unknown): { from: unknown; to: unknown } | null =>
  typeof v === 'object' && v !== null && 'to' in v ? (v as { from: unknown; to: unknown }) : null;

/**
 * A recorded value in words: statuses and control types translated, people and sites by name, dates
 * as dates. Ids the reader cannot resolve (a category they may not read) are left out, not shown raw.
 */
function valueText(field: string, value: unknown, names: Names, t: TFunction, language: string): string | null {
  if (value === null || value === undefined || value === '') return t('actionsWeb.history.empty_value');
  if (field === 'control_type' && isControl(value)) return t(`actions.controlType.${value}`);
  if (field === 'responsible_id') return names.people.get(String(value)) ?? null;
  if (field === 'site_id') return names.sites.get(String(value)) ?? null;
  if (field === 'category_id') return null;
  if (field === 'due_date' && typeof value === 'string') return formatDay(value, language);
  const text = String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** The lines under one history entry. */
export function changeLines(entry: ActionHistoryEntry, names: Names, t: TFunction, language: string): string[] {
  const c = entry.changes;
  if (entry.event === 'action_status' || entry.event === 'action_overdue') {
    return isStatus(c.from) && isStatus(c.to)
      ? [t('actionsWeb.history.statusMove', { from: t(`actions.status.${c.from}`), to: t(`actions.status.${c.to}`) })]
      : [];
  }
  if (entry.event === 'action_attach' || entry.event === 'action_detach') {
    return typeof c.file_name === 'string' ? [c.file_name] : [];
  }
  if (entry.event !== 'action_update') return [];
  return Object.entries(c).flatMap(([field, v]) => {
    const label = FIELD_LABELS[field];
    const change = pair(v);
    if (!label || !change) return [];
    const from = valueText(field, change.from, names, t, language);
    const to = valueText(field, change.to, names, t, language);
    return [from !== null && to !== null ? t('actionsWeb.history.fieldChange', { field: t(label), from, to }) : t(label)];
  });
}

/** Who did what and when, oldest first, in the site's time. */
export function ActionHistory({ action }: { action: ActionDetail }) {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const people = useActionPeople();
  const sites = useActionSites();
  const names: Names = {
    people: new Map((people.data ?? []).map((u) => [u.id, u.full_name])),
    sites: new Map((sites.data ?? []).map((s) => [s.id, s.name])),
  };
  if (action.history.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {t('actionsWeb.history.empty')}
      </Text>
    );
  return (
    <Timeline active={action.history.length - 1} bulletSize={14} lineWidth={2}>
      {action.history.map((entry) => (
        <Timeline.Item key={entry.id} title={t(`actions.history.${entry.event}`)}>
          {changeLines(entry, names, t, language).map((line, i) => (
            <Text key={i} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {line}
            </Text>
          ))}
          <Text size="xs" c="dimmed" mt={2}>
            {entry.actor?.full_name ?? t('actions.history.system')} · {formatInstant(entry.created_at, language, action.site.time_zone)}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
