import {
  LANGUAGES,
  MAILER_LIMITS,
  MAILER_SAMPLE_VALUES,
  checkMailerTemplate,
  insertMailerVariable,
  mailerTemplateSchema,
  renderMailerText,
  mailersMessages,
  type Language,
  type MailerScenarioDetail,
  type MailerTextField,
  type MailerTexts,
} from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Divider, Grid, Group, Paper, Stack, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../ui/forms/validation.js';
import { PageHeader, useConfirm, PageLoader } from '../../ui/index.js';
import { MAILERS_KEY, scenarioKey, useMailerCommands, useMailerScenario } from './mailers-api.js';

type Drafts = Record<Language, MailerTexts>;
const textsOf = (d: MailerScenarioDetail, lang: Language): MailerTexts => {
  const { subject, in_app, body, footer } = d.templates[lang];
  return { subject, in_app, body, footer };
};
const fieldId = (field: MailerTextField) => `mailer-field-${field}`;
const sameTexts = (a: MailerTexts, b: MailerTexts) =>
  a.subject === b.subject && a.in_app === b.in_app && a.body === b.body && a.footer === b.footer;

/** The variable rules of the domain, translated for the form: schema problems first, then variables. */
function checkDraft(
  detail: MailerScenarioDetail,
  lang: Language,
  texts: MailerTexts,
  t: (k: string, v?: Record<string, string>) => string,
): FieldErrors | null {
  const parsed = validate(mailerTemplateSchema, { language: lang, ...texts }, t);
  const errors: FieldErrors = { ...parsed.errors };
  for (const issue of checkMailerTemplate(detail, texts)) errors[issue.field] ??= t(issue.key, issue.vars);
  return Object.keys(errors).length > 0 ? errors : null;
}

/** /mailers/:module/:module_id/scenario/:scenario_id: the texts of one scenario per language, with variables and a preview. */
export function MailerEditor({
  orgId,
  moduleId,
  moduleKey,
  scenarioId,
}: {
  orgId: string;
  moduleId: number;
  moduleKey: string;
  scenarioId: string;
}) {
  const { t } = useTranslation();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const key = scenarioKey(orgId, moduleId, scenarioId);
  const query = useMailerScenario(orgId, moduleId, scenarioId);
  const commands = useMailerCommands(orgId, moduleId, scenarioId);
  const [lang, setLang] = useState<Language>('en');
  // Only what the admin changed, per language; everything else shows the saved texts.
  const [edits, setEdits] = useState<Partial<Drafts>>({});
  const [lastField, setLastField] = useState<MailerTextField>('body');
  const form = useFormSubmit();
  const [confirm, dialog] = useConfirm();

  const back = (
    <Anchor component={Link} to={`/mailers/${moduleKey}/${moduleId}`}>
      {t('mailers.backToScenarios', { module: t(`mailers.modules.${moduleKey}`) })}
    </Anchor>
  );
  if (!(Number.isInteger(moduleId) && moduleId > 0) || (query.isError && isApiError(query.error) && query.error.status === 404)) {
    return (
      <>
        <PageHeader title={t('screen.mailers')} />
        <Alert color="yellow" role="alert" mb="md">
          {t('errors.not_found')}
        </Alert>
        <Anchor component={Link} to="/mailers">
          {t('mailers.backToModules')}
        </Anchor>
      </>
    );
  }
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('errors.somethingWentWrong')}
      </Alert>
    );
  const detail = query.data;
  if (!detail) return <PageLoader />;

  const saved = textsOf(detail, lang);
  const draft = edits[lang] ?? saved;
  const dirty = !sameTexts(draft, saved);
  const setField = (field: MailerTextField, value: string) => setEdits({ ...edits, [lang]: { ...draft, [field]: value } });

  /** Inserts `[variable]` at the caret (or over the selection) of the field last edited, then puts the caret after it. */
  function insert(variable: string) {
    const field = lastField;
    const el = document.getElementById(fieldId(field)) as HTMLInputElement | HTMLTextAreaElement | null;
    const start = el?.selectionStart ?? draft[field].length;
    const end = el?.selectionEnd ?? start;
    const next = insertMailerVariable(draft[field], start, end, variable);
    setField(field, next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.cursor, next.cursor);
    });
  }

  function applyDetail(next: MailerScenarioDetail) {
    queryClient.setQueryData(key, next);
    const rest = { ...edits };
    delete rest[lang];
    setEdits(rest);
    void queryClient.invalidateQueries({ queryKey: MAILERS_KEY, predicate: (q) => q.queryKey.join('/') !== key.join('/') });
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (form.refuse(checkDraft(detail!, lang, draft, (k, v) => String(t(k, v ?? {}))))) return;
    await form.run(async () => {
      applyDetail(await commands.save(lang, draft));
      notifySuccess(t('mailers.saved'));
    });
  }

  async function reset() {
    const ok = await confirm({
      title: t('mailers.resetConfirmTitle'),
      message: t('mailers.resetConfirm', { language: t(`languages.${lang}`) }),
      confirmLabel: t('mailers.reset'),
      danger: true,
    });
    if (!ok) return;
    await form.run(async () => {
      applyDetail(await commands.reset(lang));
      notifySuccess(t('mailers.resetDone'));
    });
  }

  const sample = {
    ...MAILER_SAMPLE_VALUES,
    organization_name: profile?.organization?.name ?? MAILER_SAMPLE_VALUES['organization_name'] ?? '',
  };
  const customized = detail.templates[lang].customized;
  const fieldProps = (field: MailerTextField) => ({
    id: fieldId(field),
    label: t(`mailers.fields.${field}`),
    value: draft[field],
    error: form.errors[field],
    maxLength: MAILER_LIMITS[field],
    onFocus: () => setLastField(field),
    onChange: (e: { currentTarget: { value: string } }) => setField(field, e.currentTarget.value),
  });

  return (
    <>
      <PageHeader
        title={t(`mailers.scenarios.${detail.id}`)}
        description={back}
        actions={
          detail.mandatory ? (
            <Badge variant="outline" title={t('mailers.mandatoryHint')}>
              {t('mailers.mandatory')}
            </Badge>
          ) : undefined
        }
      />
      <Tabs
        value={lang}
        onChange={(v) => {
          if (v) {
            setLang(v as Language);
            form.refuse(null);
          }
        }}
      >
        <Tabs.List mb="md" aria-label={t('mailers.fields.language')}>
          {LANGUAGES.map((l) => (
            <Tabs.Tab
              key={l}
              value={l}
              lang={l}
              rightSection={
                detail.templates[l].customized ? (
                  <Badge size="xs" variant="light">
                    {t('mailers.customized')}
                  </Badge>
                ) : null
              }
            >
              {t(`languages.${l}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper
            withBorder
            p="md"
            radius="md"
            component="form"
            onSubmit={(e: FormEvent) => void save(e)}
            noValidate
            aria-label={t(`mailers.scenarios.${detail.id}`)}
          >
            <Stack gap="sm">
              {form.message ? (
                <Alert color="red" role="alert">
                  {form.message}
                </Alert>
              ) : null}
              <Stack gap={4}>
                <Text size="sm" fw={500} id="mailer-variables">
                  {t('mailers.variables')}
                </Text>
                <Group gap={6} role="group" aria-labelledby="mailer-variables">
                  {detail.variables.map((v) => {
                    const required = detail.required.includes(v);
                    return (
                      <Button
                        key={v}
                        size="compact-xs"
                        variant={required ? 'light' : 'default'}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => insert(v)}
                        aria-label={required ? t('mailers.requiredVariable', { variable: `[${v}]` }) : `[${v}]`}
                      >
                        [{v}]{required ? ' *' : ''}
                      </Button>
                    );
                  })}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('mailers.variablesHint')}
                </Text>
              </Stack>
              <TextInput {...fieldProps('subject')} required />
              <Textarea {...fieldProps('in_app')} required autosize minRows={2} />
              <Textarea {...fieldProps('body')} required autosize minRows={6} />
              <Textarea {...fieldProps('footer')} autosize minRows={2} />
              {dirty ? (
                <Text size="sm" c="orange">
                  {t('mailers.unsaved')}
                </Text>
              ) : null}
              <Group justify="space-between" wrap="wrap">
                <Button variant="default" color="red" onClick={() => void reset()} disabled={!customized || form.busy}>
                  {t('mailers.reset')}
                </Button>
                <Button type="submit" loading={form.busy} disabled={!dirty}>
                  {t('mailers.save')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md" radius="md" aria-labelledby="mailer-preview" lang={lang}>
            <Title order={2} size="h4" id="mailer-preview">
              {t('mailers.preview')}
            </Title>
            <Text size="xs" c="dimmed" mb="sm">
              {t('mailers.previewHint')}
            </Text>
            <Text size="sm" c="dimmed">
              {mailersMessages[lang].fields.in_app}
            </Text>
            <Text mb="sm" data-testid="preview-in-app">
              {renderMailerText(draft.in_app, sample)}
            </Text>
            <Divider mb="sm" />
            <Text fw={600} data-testid="preview-subject" style={{ overflowWrap: 'anywhere' }}>
              {renderMailerText(draft.subject, sample)}
            </Text>
            <Text mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="preview-body">
              {renderMailerText(draft.body, sample)}
            </Text>
            {draft.footer.trim() ? (
              <Text mt="md" size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {renderMailerText(draft.footer, sample)}
              </Text>
            ) : null}
          </Paper>
        </Grid.Col>
      </Grid>
      {dialog}
    </>
  );
}
