import { PERMIT_SECTIONS_MAX, type PermitTemplateDetail } from '@bulwark/domain';
import { Accordion, Alert, Badge, Box, Button, Grid, Group, Modal, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { moveItem } from './builder-model.js';
import { GuidedTour, TourStop } from './guided-tour.js';
import { usePermitTemplate, useTemplateCommands } from './permit-templates-api.js';
import { useRight } from './permits-api.js';
import { SectionCard } from './section-card.js';
import { SortableList } from '../../ui/sortable-list.js';
import { TemplatePreview } from './template-preview.js';
import { TemplateSettings } from './template-settings.js';

/**
 * /permit-forms/:id, the template builder (spec 001 §3): the template's settings, its sections and
 * their questions (added, ordered by drag or buttons, edited and removed), and beside them a live
 * preview of the form as a requester will see it. On a phone the preview is a view of its own.
 */
export function TemplateBuilderPage({ id }: { id: string }) {
  const { t } = useTranslation();
  const template = usePermitTemplate(id);
  if (template.isError)
    return (
      <RecordLoadFailed
        title={t('screen.permitForms')}
        error={template.error}
        notFoundText={t('permitsWeb.templates.notFound')}
        backTo="/permit-forms"
      />
    );
  if (!template.data) return <PageLoader />;
  return <Builder template={template.data} />;
}

function Builder({ template }: { template: PermitTemplateDetail }) {
  const { t } = useTranslation();
  const mayEdit = useRight('Permit Form Setting', 'update');
  const commands = useTemplateCommands(template.id);
  const [view, setView] = useState<'build' | 'preview'>('build');
  // The preview sits beside the builder from the lg breakpoint; below it, it is a view of its own.
  const wide = useMediaQuery('(min-width: 75em)') ?? false;
  const [adding, setAdding] = useState<string | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const sections = [...template.sections].sort((a, b) => a.position - b.position);

  async function moveSection(from: number, to: number) {
    const moved = moveItem(sections, from, to);
    const section = sections[from];
    if (!section || moved[from] === section) return;
    try {
      await commands.moveSection(template.id, section.id, moved.indexOf(section) + 1);
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  async function addSection() {
    if (!adding?.trim()) {
      setAddError(t('validation.required'));
      return;
    }
    try {
      await commands.addSection(template.id, { name: adding.trim(), questions: [] });
      notifySuccess(t('permitsWeb.builder.sectionAdded'));
      setAdding(null);
      setAddError(null);
    } catch (error) {
      setAddError(isApiError(error) ? (error.fields['name'] ?? error.message) : t('errors.somethingWentWrong'));
    }
  }

  const builder = (
    <Stack gap="sm">
      <Accordion variant="contained" radius="md">
        <Accordion.Item value="settings">
          <Accordion.Control>{t('permitsWeb.templates.settings')}</Accordion.Control>
          <Accordion.Panel>
            <TemplateSettings template={template} readOnly={!mayEdit} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <TourStop index={0} title={t('permitsWeb.tour.template.sectionsTitle')} text={t('permitsWeb.tour.template.sections')}>
        <Title order={2} size="h4">
          {t('permitsWeb.builder.sections', { count: sections.length })}
        </Title>
      </TourStop>
      <SortableList
        items={sections}
        id={(s) => s.id}
        label={t('permitsWeb.builder.sectionsList')}
        name={(s) => s.name}
        onMove={(a, b) => void moveSection(a, b)}
        disabled={!mayEdit}
      >
        {(s, i, handle) => (
          <SectionCard
            templateId={template.id}
            section={s}
            sections={sections}
            index={i}
            handle={handle}
            onMoveSection={(a, b) => void moveSection(a, b)}
            readOnly={!mayEdit}
          />
        )}
      </SortableList>
      {mayEdit ? (
        <TourStop index={1} title={t('permitsWeb.tour.template.addTitle')} text={t('permitsWeb.tour.template.add')}>
          <Button variant="light" onClick={() => setAdding('')} disabled={sections.length >= PERMIT_SECTIONS_MAX}>
            {t('permitsWeb.builder.addSection')}
          </Button>
        </TourStop>
      ) : null}
    </Stack>
  );

  return (
    <GuidedTour tourKey="permit_template" count={3}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {template.name}
            </Title>
            <Badge variant="light">{template.prefix}</Badge>
            <Badge color={template.enabled ? 'teal' : 'gray'} variant="outline">
              {template.enabled ? t('permitsWeb.templates.on') : t('permitsWeb.templates.off')}
            </Badge>
          </Group>
          <Button component={Link} to="/permit-forms" variant="subtle">
            {t('permitsWeb.templates.back')}
          </Button>
        </Group>
        {wide ? null : (
          <TourStop index={2} title={t('permitsWeb.tour.template.previewTitle')} text={t('permitsWeb.tour.template.preview')}>
            <SegmentedControl
              fullWidth
              value={view}
              onChange={(v) => setView(v as 'build' | 'preview')}
              data={[
                { value: 'build', label: t('permitsWeb.builder.build') },
                { value: 'preview', label: t('permitsWeb.builder.preview') },
              ]}
            />
          </TourStop>
        )}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 7 }} display={{ base: view === 'build' ? 'block' : 'none', lg: 'block' }}>
            {builder}
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }} display={{ base: view === 'preview' ? 'block' : 'none', lg: 'block' }}>
            <Box style={{ position: 'sticky', top: 72 }}>
              {wide ? (
                <TourStop index={2} title={t('permitsWeb.tour.template.previewTitle')} text={t('permitsWeb.tour.template.preview')}>
                  <TemplatePreview template={template} />
                </TourStop>
              ) : (
                <TemplatePreview template={template} />
              )}
            </Box>
          </Grid.Col>
        </Grid>
      </Stack>
      <Modal opened={adding !== null} onClose={() => setAdding(null)} title={t('permitsWeb.builder.addSection')} centered>
        <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void addSection())}>
          {addError && !adding?.trim() ? null : addError ? <Alert color="red">{addError}</Alert> : null}
          <TextInput
            label={t('permitsWeb.builder.sectionName')}
            withAsterisk
            value={adding ?? ''}
            onChange={(e) => setAdding(e.currentTarget.value)}
            error={addError && !adding?.trim() ? addError : undefined}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setAdding(null)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit">{t('kit.add')}</Button>
          </Group>
        </Stack>
      </Modal>
    </GuidedTour>
  );
}
