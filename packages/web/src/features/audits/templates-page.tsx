import {
  AUDIT_ICONS,
  AUDIT_SECTIONS_MAX,
  AUDIT_TYPES,
  auditTemplateCreateBody,
  type AuditIcon as AuditIconName,
  type AuditTemplateDetail,
  type AuditTemplateSummary,
  type AuditType,
} from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Menu,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { DataTable, PageHeader, PageLoader, RecordLoadFailed, SearchInput, useConfirm, type Column } from '../../ui/index.js';
import { useAuditTemplate, useAuditTemplateCommands, useAuditTemplates } from './audit-templates-api.js';
import { useAuditFormData, useAuditRight } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { AuditIcon } from './badges.js';
import { moveItem } from './builder-model.js';
import { points } from './run-model.js';
import { ReportSettingsDialog } from './report-settings-dialog.js';
import { SectionCard } from './section-card.js';
import { SortableList } from '../../ui/sortable-list.js';
import { TemplatePreview } from './template-preview.js';

/** The `auditForms` screen: the template list (/audit-forms), or one template's builder (/audit-forms/:id). */
export function AuditFormsPage() {
  const { id } = useParams();
  return id ? <TemplateBuilder key={id} id={id} /> : <TemplatesList />;
}

/**
 * /audit-forms (spec 001 §2, §3): the audit templates with their type, content and switch; a new
 * template (Audit Template create), a copy of one (clone), switching one off (update) and deleting one
 * no audit or schedule was made from (delete).
 */
function TemplatesList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<string | null>(null);
  const list = useAuditTemplates(search, type);
  const commands = useAuditTemplateCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [creating, setCreating] = useState(false);
  const [cloning, setCloning] = useState<AuditTemplateSummary | null>(null);
  const [reportSettings, setReportSettings] = useState(false);
  const mayCreate = useAuditRight('Audit Template', 'create');
  const mayEdit = useAuditRight('Audit Template', 'update');
  const mayDelete = useAuditRight('Audit Template', 'delete');
  const limit = list.data?.limit ?? null;
  const atLimit = limit !== null && !search && !type && (list.data?.templates.length ?? 0) >= limit;
  const contentLine = (tpl: AuditTemplateSummary) =>
    `${t('auditsWeb.builder.sections', { count: tpl.sections_count })} · ${t('auditsWeb.builder.questionsN', { count: tpl.questions_count })}`;

  async function toggle(tpl: AuditTemplateSummary, active: boolean) {
    if (
      !active &&
      !(await confirm({
        message: t('auditsWeb.templates.offConfirm', { name: tpl.name }),
        confirmLabel: t('auditsWeb.templates.switchOff'),
      }))
    )
      return;
    try {
      await commands.update(tpl.id, { active });
      notifySuccess(
        active ? t('auditsWeb.templates.switchedOn', { name: tpl.name }) : t('auditsWeb.templates.switchedOff', { name: tpl.name }),
      );
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }
  async function remove(tpl: AuditTemplateSummary) {
    if (!(await confirm({ message: t('kit.deleteConfirm', { name: tpl.name }), danger: true, confirmLabel: t('kit.delete') }))) return;
    try {
      await commands.remove(tpl.id);
      notifySuccess(t('kit.deleted'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const columns: Column<AuditTemplateSummary>[] = [
    {
      key: 'name',
      header: t('audits.fields.name'),
      render: (tpl) => (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <AuditIcon icon={tpl.icon} size="md" />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={`/audit-forms/${tpl.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {tpl.name}
            </Anchor>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {tpl.description}
            </Text>
            <Text size="xs" c="dimmed" hiddenFrom="sm">
              {t(`audits.types.${tpl.type}`)} · {contentLine(tpl)}
            </Text>
          </Stack>
        </Group>
      ),
    },
    { key: 'type', header: t('audits.fields.type'), render: (tpl) => t(`audits.types.${tpl.type}`), hideOnPhone: true },
    {
      key: 'content',
      header: t('auditsWeb.templates.content'),
      render: (tpl) => (
        <Stack gap={0}>
          <Text size="sm">{contentLine(tpl)}</Text>
          <Text size="xs" c="dimmed">
            {tpl.scoring ? t('auditsWeb.templates.maxScore', { n: points(tpl.max_score) }) : t('auditsWeb.templates.noScoring')}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'use',
      header: t('auditsWeb.templates.use'),
      render: (tpl) => (
        <Text size="sm">{`${t('auditsWeb.trends.auditsN', { count: tpl.audits_count })} · ${t('auditsWeb.templates.schedulesN', { count: tpl.schedules_count })}`}</Text>
      ),
      hideOnPhone: true,
    },
    {
      key: 'active',
      header: t('audits.fields.active'),
      width: 80,
      render: (tpl) =>
        mayEdit ? (
          <Switch
            checked={tpl.active}
            onChange={(e) => void toggle(tpl, e.currentTarget.checked)}
            aria-label={t('auditsWeb.templates.switchOf', { name: tpl.name })}
          />
        ) : (
          <Badge size="sm" variant="light" color={tpl.active ? 'teal' : 'gray'}>
            {tpl.active ? t('kit.active') : t('kit.inactive')}
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: t('kit.actions'),
      width: 64,
      render: (tpl) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button size="compact-sm" variant="subtle" aria-label={t('auditsWeb.templates.menuOf', { name: tpl.name })}>
              ⋯
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={Link} to={`/audit-forms/${tpl.id}`}>
              {mayEdit ? t('kit.edit') : t('kit.view')}
            </Menu.Item>
            {mayCreate ? (
              <Menu.Item onClick={() => setCloning(tpl)} disabled={atLimit}>
                {t('auditsWeb.templates.clone')}
              </Menu.Item>
            ) : null}
            {mayDelete && tpl.audits_count + tpl.schedules_count === 0 ? (
              <Menu.Item color="red" onClick={() => void remove(tpl)}>
                {t('kit.delete')}
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader
        title={t('audits.templatesTitle')}
        description={t('auditsWeb.templates.help')}
        actions={
          mayCreate || mayEdit ? (
            <Group gap="xs" wrap="wrap">
              {mayEdit ? (
                <Button variant="default" onClick={() => setReportSettings(true)}>
                  {t('auditsWeb.reportSettings.title')}
                </Button>
              ) : null}
              {mayCreate ? (
                <Button onClick={() => setCreating(true)} disabled={atLimit}>
                  {t('auditsWeb.templates.new')}
                </Button>
              ) : null}
            </Group>
          ) : null
        }
      />
      {atLimit && mayCreate ? (
        <Alert color="yellow" role="status">
          {t('audits.limits.templates', { limit })}
        </Alert>
      ) : null}
      <Group gap="xs" align="flex-end" wrap="wrap">
        <SearchInput value={search} onChange={setSearch} label={t('auditsWeb.templates.search')} />
        <Select
          label={t('audits.fields.type')}
          placeholder={t('auditsWeb.filters.allTypes')}
          clearable
          data={AUDIT_TYPES.map((x) => ({ value: x, label: t(`audits.types.${x}`) }))}
          value={type}
          onChange={setType}
          w={{ base: '100%', xs: 170 }}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.data?.templates}
        rowKey={(tpl) => tpl.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={search || type ? t('kit.noResults') : t('auditsWeb.templates.empty')}
        emptyAction={
          !search && !type && mayCreate ? (
            <Button variant="light" onClick={() => setCreating(true)}>
              {t('auditsWeb.templates.new')}
            </Button>
          ) : null
        }
        caption={t('audits.templatesTitle')}
      />
      {creating ? (
        <TemplateForm
          template={null}
          onClose={() => setCreating(false)}
          onSaved={(tpl) => {
            notifySuccess(t('auditsWeb.templates.created', { name: tpl.name }));
            navigate(`/audit-forms/${tpl.id}`);
          }}
        />
      ) : null}
      {cloning ? <CloneDialog template={cloning} onClose={() => setCloning(null)} /> : null}
      {reportSettings ? <ReportSettingsDialog onClose={() => setReportSettings(false)} /> : null}
      {confirmDialog}
    </Stack>
  );
}

function CloneDialog({ template, onClose }: { template: { id: string; name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = useAuditTemplateCommands();
  const form = useFormSubmit();
  const [name, setName] = useState(t('auditsWeb.templates.copyName', { name: template.name }));
  async function save() {
    if (form.refuse(name.trim() ? null : { name: t('validation.required') })) return;
    await form.run(async () => {
      const copy = await commands.clone(template.id, { name: name.trim() });
      notifySuccess(t('auditsWeb.templates.cloned', { name: copy.name }));
      onClose();
      navigate(`/audit-forms/${copy.id}`);
    });
  }
  return (
    <Modal opened onClose={onClose} title={t('auditsWeb.templates.cloneTitle', { name: template.name })}>
      <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void save())}>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Text size="sm" c="dimmed">
          {t('auditsWeb.templates.cloneHelp')}
        </Text>
        <TextInput
          label={t('audits.fields.name')}
          withAsterisk
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={form.errors['name']}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('auditsWeb.templates.clone')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type TemplateDraft = {
  name: string;
  description: string;
  icon: AuditIconName;
  type: AuditType;
  scoring: boolean;
  declaration: string;
  active: boolean;
};

/** A new template, or the settings of one: name, description, icon, type, scoring, declaration. */
function TemplateForm({
  template,
  onClose,
  onSaved,
}: {
  template: AuditTemplateDetail | null;
  onClose: () => void;
  onSaved: (t: AuditTemplateDetail) => void;
}) {
  const { t } = useTranslation();
  const commands = useAuditTemplateCommands(template?.id);
  const form = useFormSubmit();
  const [v, setV] = useState<TemplateDraft>(() =>
    template
      ? {
          name: template.name,
          description: template.description ?? '',
          icon: template.icon,
          type: template.type,
          scoring: template.scoring,
          declaration: template.declaration ?? '',
          active: template.active,
        }
      : { name: '', description: '', icon: 'clipboard', type: 'safety', scoring: true, declaration: '', active: true },
  );
  const set = (change: Partial<TemplateDraft>) => setV((x) => ({ ...x, ...change }));
  async function save() {
    const body = { ...v, description: v.description.trim() || null, declaration: v.declaration.trim() || null };
    if (form.refuse(validate(auditTemplateCreateBody, body, t).errors)) return;
    await form.run(async () => {
      const saved = template ? await commands.update(template.id, body) : await commands.create(body);
      onSaved(saved);
      onClose();
    });
  }
  const e = form.errors;
  return (
    <Modal opened onClose={onClose} title={template ? t('auditsWeb.templates.settings') : t('auditsWeb.templates.new')} size="lg">
      <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), void save())}>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {template ? null : (
          <Text size="sm" c="dimmed">
            {t('auditsWeb.templates.newHelp')}
          </Text>
        )}
        <TextInput
          label={t('audits.fields.name')}
          withAsterisk
          value={v.name}
          onChange={(ev) => set({ name: ev.currentTarget.value })}
          error={e['name']}
          data-autofocus
        />
        <Textarea
          label={t('audits.fields.description')}
          autosize
          minRows={2}
          value={v.description}
          onChange={(ev) => set({ description: ev.currentTarget.value })}
          error={e['description']}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label={t('audits.fields.type')}
            withAsterisk
            data={AUDIT_TYPES.map((x) => ({ value: x, label: t(`audits.types.${x}`) }))}
            value={v.type}
            onChange={(x) => x && set({ type: x as AuditType })}
            allowDeselect={false}
            error={e['type']}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('audits.fields.icon')}
            withAsterisk
            data={AUDIT_ICONS.map((x) => ({ value: x, label: t(`audits.icons.${x}`) }))}
            value={v.icon}
            onChange={(x) => x && set({ icon: x as AuditIconName })}
            allowDeselect={false}
            leftSection={<AuditIcon icon={v.icon} size="sm" />}
            renderOption={({ option }) => (
              <Group gap="xs" wrap="nowrap">
                <AuditIcon icon={option.value as AuditIconName} size="sm" />
                <Text size="sm">{option.label}</Text>
              </Group>
            )}
            error={e['icon']}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Switch
          label={t('auditsWeb.templates.scoring')}
          description={t('auditsWeb.templates.scoringHelp')}
          checked={v.scoring}
          onChange={(ev) => set({ scoring: ev.currentTarget.checked })}
        />
        <Textarea
          label={t('audits.fields.declaration')}
          description={t('auditsWeb.templates.declarationHelp')}
          autosize
          minRows={2}
          value={v.declaration}
          onChange={(ev) => set({ declaration: ev.currentTarget.value })}
          error={e['declaration']}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {template ? t('common.save') : t('auditsWeb.templates.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * /audit-forms/:id, the template builder (spec 001 §3): the template's settings, its ordered sections
 * of ordered questions (added, reordered by drag, keyboard or buttons, edited, removed), and beside
 * them a live preview that runs the conditions as an auditor will see them. On a phone the preview is
 * a view of its own.
 */
function TemplateBuilder({ id }: { id: string }) {
  const { t } = useTranslation();
  const template = useAuditTemplate(id);
  if (template.isError)
    return (
      <RecordLoadFailed
        title={t('audits.templatesTitle')}
        error={template.error}
        notFoundText={t('auditsWeb.templates.notFound')}
        backTo="/audit-forms"
      />
    );
  if (!template.data) return <PageLoader />;
  return <Builder template={template.data} />;
}

function Builder({ template }: { template: AuditTemplateDetail }) {
  const { t } = useTranslation();
  const mayEdit = useAuditRight('Audit Template', 'update');
  const mayCreate = useAuditRight('Audit Template', 'create');
  const commands = useAuditTemplateCommands(template.id);
  const formData = useAuditFormData();
  const [view, setView] = useState<'build' | 'preview'>('build');
  const wide = useMediaQuery('(min-width: 75em)') ?? false;
  const [adding, setAdding] = useState<string | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const [settings, setSettings] = useState(false);
  const [cloning, setCloning] = useState(false);
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
      notifySuccess(t('auditsWeb.builder.sectionAdded'));
      setAdding(null);
      setAddError(null);
    } catch (error) {
      setAddError(isApiError(error) ? (error.fields['name'] ?? error.message) : t('errors.somethingWentWrong'));
    }
  }

  const builder = (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('auditsWeb.builder.sections', { count: sections.length })}
      </Title>
      {sections.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('auditsWeb.builder.noSections')}
        </Text>
      ) : (
        <SortableList
          items={sections}
          id={(s) => s.id}
          label={t('auditsWeb.builder.sectionsList')}
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
              scoring={template.scoring}
              users={formData.data?.users ?? []}
              onMoveSection={(a, b) => void moveSection(a, b)}
              readOnly={!mayEdit}
            />
          )}
        </SortableList>
      )}
      {mayEdit ? (
        <Button variant="light" onClick={() => setAdding('')} disabled={sections.length >= AUDIT_SECTIONS_MAX} w="fit-content">
          {t('auditsWeb.builder.addSection')}
        </Button>
      ) : null}
    </Stack>
  );

  return (
    <Stack gap="sm">
      <AuditsNav />
      <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
        <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: '1 1 240px' }}>
          <AuditIcon icon={template.icon} size="xl" />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {template.name}
            </Title>
            <Group gap={6} wrap="wrap">
              <Badge variant="light">{t(`audits.types.${template.type}`)}</Badge>
              <Badge color={template.active ? 'teal' : 'gray'} variant="outline">
                {template.active ? t('kit.active') : t('kit.inactive')}
              </Badge>
              <Text size="xs" c="dimmed">
                {template.scoring
                  ? t('auditsWeb.templates.maxScore', { n: points(template.max_score) })
                  : t('auditsWeb.templates.noScoring')}
              </Text>
            </Group>
          </Stack>
        </Group>
        <Group gap="xs" wrap="wrap">
          {mayEdit ? (
            <Button variant="default" onClick={() => setSettings(true)}>
              {t('auditsWeb.templates.settings')}
            </Button>
          ) : null}
          {mayCreate ? (
            <Button variant="default" onClick={() => setCloning(true)}>
              {t('auditsWeb.templates.clone')}
            </Button>
          ) : null}
          <Button component={Link} to="/audit-forms" variant="subtle">
            {t('auditsWeb.templates.back')}
          </Button>
        </Group>
      </Group>
      {template.description ? (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
          {template.description}
        </Text>
      ) : null}
      {template.audits_count > 0 && mayEdit ? (
        <Alert color="blue" role="status">
          {t('auditsWeb.builder.inUse', { count: template.audits_count })}
        </Alert>
      ) : null}
      {wide ? null : (
        <SegmentedControl
          fullWidth
          value={view}
          onChange={(v) => setView(v as 'build' | 'preview')}
          data={[
            { value: 'build', label: t('auditsWeb.builder.build') },
            { value: 'preview', label: t('auditsWeb.builder.preview') },
          ]}
        />
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }} display={{ base: view === 'build' ? 'block' : 'none', lg: 'block' }}>
          {builder}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} display={{ base: view === 'preview' ? 'block' : 'none', lg: 'block' }}>
          <Box style={{ position: 'sticky', top: 72 }}>
            <TemplatePreview template={template} />
          </Box>
        </Grid.Col>
      </Grid>
      <Modal opened={adding !== null} onClose={() => setAdding(null)} title={t('auditsWeb.builder.addSection')} centered>
        <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void addSection())}>
          <TextInput
            label={t('auditsWeb.builder.sectionName')}
            withAsterisk
            value={adding ?? ''}
            onChange={(e) => setAdding(e.currentTarget.value)}
            error={addError ?? undefined}
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
      {settings ? (
        <TemplateForm template={template} onClose={() => setSettings(false)} onSaved={() => notifySuccess(t('kit.saved'))} />
      ) : null}
      {cloning ? <CloneDialog template={template} onClose={() => setCloning(false)} /> : null}
    </Stack>
  );
}
