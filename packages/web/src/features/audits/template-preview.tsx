import type { AuditTemplateDetail } from '@bulwark/domain';
import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScoreText } from './badges.js';
import { previewForm } from './builder-model.js';
import { QuestionCard } from './question-card.js';
import { blankDraft, liveState, type Drafts } from './run-model.js';

/**
 * The builder's live preview: the template as an audit of it runs now (its switched-on sections), one
 * section at a time, answered on the spot so the conditions show and hide child questions and the
 * score runs, without saving anything.
 */
export function TemplatePreview({ template }: { template: AuditTemplateDetail }) {
  const { t } = useTranslation();
  const form = previewForm(template);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [index, setIndex] = useState(0);
  const live = liveState(form, drafts);
  const sections = form.sections;
  const at = Math.min(index, Math.max(0, sections.length - 1));
  const section = sections[at];
  const questions = section ? [...section.questions].sort((a, b) => a.position - b.position) : [];
  const shown = questions.filter((q) => live.shown.has(q.id));

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'xs', sm: 'sm' }}
      component="section"
      aria-labelledby="template-preview"
      bg="var(--mantine-color-gray-0)"
    >
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs">
        <Title order={2} size="h4" id="template-preview">
          {t('auditsWeb.builder.preview')}
        </Title>
        {Object.keys(drafts).length > 0 ? (
          <Button size="compact-sm" variant="subtle" onClick={() => setDrafts({})}>
            {t('auditsWeb.builder.previewReset')}
          </Button>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {t('auditsWeb.builder.previewHelp')}
      </Text>
      {!section ? (
        <Text size="sm" c="dimmed">
          {t('auditsWeb.builder.previewEmpty')}
        </Text>
      ) : (
        <Stack gap="xs">
          <Group justify="space-between" gap="xs" wrap="wrap">
            {sections.length > 1 ? (
              <Select
                aria-label={t('auditsWeb.run.jump')}
                data={sections.map((s, i) => ({ value: String(i), label: `${i + 1}. ${s.name}` }))}
                value={String(at)}
                onChange={(v) => v && setIndex(Number(v))}
                allowDeselect={false}
                w={{ base: '100%', xs: 240 }}
                comboboxProps={{ withinPortal: true }}
              />
            ) : (
              <Text fw={600}>{section.name}</Text>
            )}
            {form.scoring ? <ScoreText {...live.score} /> : null}
          </Group>
          <Text size="xs" c="dimmed">
            {t('auditsWeb.run.progress', { answered: live.progress.answered, shown: live.progress.shown })}
          </Text>
          {shown.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('auditsWeb.run.sectionEmpty')}
            </Text>
          ) : null}
          {shown.map((q) => (
            <QuestionCard
              key={q.id}
              question={q}
              number={`${at + 1}.${questions.indexOf(q) + 1}`}
              draft={drafts[q.id]}
              result={live.results.get(q.id)}
              status={undefined}
              scoring={form.scoring}
              onChange={(next) => setDrafts((x) => ({ ...x, [q.id]: next(x[q.id] ?? blankDraft(q)) }))}
              onAddOption={null}
              upload={null}
              child={q.condition !== null}
            />
          ))}
          {sections.length > 1 ? (
            <Group justify="space-between" gap="xs">
              <Button variant="default" size="xs" disabled={at === 0} onClick={() => setIndex(at - 1)}>
                {t('auditsWeb.run.previous')}
              </Button>
              <Button variant="default" size="xs" disabled={at >= sections.length - 1} onClick={() => setIndex(at + 1)}>
                {t('auditsWeb.run.next')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
