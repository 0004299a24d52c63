import type { PermitForm, Worker } from '@bulwark/domain';
import { Alert, Anchor, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../ui/format.js';
import { deepestArea, joinLocal, type RequestState } from './request-model.js';

/** The field a problem key names, in words: a question's label, or the permit's own field. */
function problemLabel(form: PermitForm, key: string, t: (k: string) => string): string {
  if (key.startsWith('answers.')) {
    const id = key.slice('answers.'.length);
    for (const s of form.sections) for (const q of s.questions) if (q.id === id) return `${s.name}: ${q.label}`;
  }
  const own: Record<string, string> = {
    worker_ids: 'permits.fields.workers',
    site_id: 'permits.fields.site',
    start_at: 'permits.fields.startAt',
    end_at: 'permits.fields.endAt',
  };
  return t(own[key] ?? 'permits.fields.description');
}

/**
 * The last step: what will be sent, and what is still missing (each a link to its step). The server
 * looks for clashes when the request is saved; they are shown in the confirmation.
 */
export function SubmitReview(props: {
  form: PermitForm;
  state: RequestState;
  workers: Worker[];
  problems: Record<string, string>;
  onGo: (field: string) => void;
}) {
  const { t } = useTranslation();
  const f = useFormats();
  const { form, state } = props;
  const site = form.sites.find((s) => s.id === state.site_id);
  const area = site?.areas.find((a) => a.id === deepestArea(state.areas));
  const start = joinLocal(state.start_date, state.start_time);
  const end = joinLocal(state.end_date, state.end_time);
  const missing = Object.entries(props.problems);
  const row = (label: string, value: string) => (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Title order={2} size="h4" mb="sm">
          {t('permitsWeb.request.reviewTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {row(t('permits.fields.type'), form.template.name)}
          {row(t('permits.fields.site'), site ? `${site.name}${area ? ` / ${area.full_name}` : ''}` : '—')}
          {row(t('permits.fields.startAt'), start ? f.local(start) : '—')}
          {row(t('permits.fields.endAt'), end ? f.local(end) : '—')}
          {row(t('permits.fields.workers'), props.workers.map((w) => w.name).join(', ') || '—')}
        </SimpleGrid>
      </Paper>
      {missing.length > 0 ? (
        <Alert color="yellow" title={t('permitsWeb.request.missingTitle', { count: missing.length })}>
          <List size="sm" spacing={4}>
            {missing.map(([key, problem]) => (
              <List.Item key={key}>
                <Anchor component="button" type="button" size="sm" onClick={() => props.onGo(key)}>
                  {problemLabel(form, key, t)}
                </Anchor>
                {`: ${t(problem)}`}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : (
        <Alert color="teal">{t('permitsWeb.request.ready')}</Alert>
      )}
    </Stack>
  );
}
