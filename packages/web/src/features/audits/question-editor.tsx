import {
  AUDIT_NOTIFY_ROLES,
  AUDIT_NOTIFY_WHEN,
  AUDIT_OPTIONS_MAX,
  AUDIT_RESPONSE_TYPES,
  type AuditFormData,
  type AuditNotifyRole,
  type AuditNotifyWhen,
  type AuditResponseType,
} from '@bulwark/domain';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { blankOption, canFail, scoresItself, type ConditionSource, type QuestionDraft } from './builder-model.js';

/**
 * One question of an audit template: how it is answered, its label and explanation, required and
 * critical, its points (yes/no and a number with a range) or its options' points and failures, NA,
 * rows, attachments, the parent answer that shows it, and who is told when it is answered.
 */
export function QuestionEditor(props: {
  draft: QuestionDraft | null;
  sources: ConditionSource[];
  scoring: boolean;
  users: AuditFormData['users'];
  /** Field errors of the last save for this question, and a message. */
  errors: Record<string, string>;
  message: string | null;
  busy: boolean;
  onCancel: () => void;
  onSave: (draft: QuestionDraft) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.draft !== null}
      onClose={props.onCancel}
      title={props.draft?.id ? t('auditsWeb.builder.editQuestion') : t('auditsWeb.builder.newQuestion')}
      size="lg"
    >
      {props.draft ? <EditorBody key={props.draft.id ?? props.draft.key} {...props} draft={props.draft} /> : null}
    </Modal>
  );
}

function EditorBody(props: Parameters<typeof QuestionEditor>[0] & { draft: QuestionDraft }) {
  const { t } = useTranslation();
  const [d, setD] = useState<QuestionDraft>(props.draft);
  const set = (change: Partial<QuestionDraft>) => setD((x) => ({ ...x, ...change }));
  const e = props.errors;
  const source = props.sources.find((s) => s.id === d.condition?.question);
  const own = (k: string) => Object.entries(e).find(([key]) => key === k || key.startsWith(`${k}.`))?.[1];

  function changeType(type: AuditResponseType) {
    set({
      type,
      options: type === 'choice' && d.options.length < 2 ? [blankOption(), blankOption()] : d.options,
      allow_na: type === 'yes_no' ? true : type === 'choice' ? d.allow_na : false,
      score: type === 'yes_no' && d.score === 0 ? 1 : d.score,
      critical: canFail({ type }) ? d.critical : false,
    });
  }
  const setOption = (i: number, change: Partial<QuestionDraft['options'][number]>) =>
    set({ options: d.options.map((o, j) => (j === i ? { ...o, ...change } : o)) });
  const optionKeys =
    d.type === 'yes_no'
      ? [
          { value: 'yes', label: t('audits.answers.yes') },
          { value: 'no', label: t('audits.answers.no') },
          ...(d.allow_na ? [{ value: 'na', label: t('audits.answers.na') }] : []),
        ]
      : d.options.filter((o) => o.label.trim()).map((o) => ({ value: o.key ?? o.label.trim(), label: o.label.trim() }));

  return (
    <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), props.onSave(d))}>
      {props.message ? (
        <Alert color="red" role="alert">
          {props.message}
        </Alert>
      ) : null}
      <Select
        label={t('auditsWeb.builder.type')}
        data={AUDIT_RESPONSE_TYPES.map((x) => ({ value: x, label: t(`audits.responseTypes.${x}`) }))}
        value={d.type}
        onChange={(v) => v && changeType(v as AuditResponseType)}
        allowDeselect={false}
        error={e['type']}
        comboboxProps={{ withinPortal: true }}
      />
      <Textarea
        label={t('audits.fields.question')}
        withAsterisk
        autosize
        minRows={1}
        value={d.label}
        onChange={(ev) => set({ label: ev.currentTarget.value })}
        error={e['label']}
        data-autofocus
      />
      <Textarea
        label={t('auditsWeb.builder.explanation')}
        autosize
        minRows={1}
        value={d.description ?? ''}
        onChange={(ev) => set({ description: ev.currentTarget.value || null })}
        error={e['description']}
      />
      <Group gap="md" wrap="wrap">
        <Switch
          label={t('auditsWeb.builder.required')}
          checked={d.required}
          onChange={(ev) => set({ required: ev.currentTarget.checked })}
        />
        {canFail(d) ? (
          <Switch
            label={t('auditsWeb.builder.critical')}
            description={t('auditsWeb.builder.criticalHelp')}
            checked={d.critical}
            onChange={(ev) => set({ critical: ev.currentTarget.checked })}
            error={e['critical']}
          />
        ) : null}
        <Switch
          label={t('auditsWeb.builder.attachments')}
          checked={d.attachments}
          onChange={(ev) => set({ attachments: ev.currentTarget.checked })}
        />
      </Group>

      {d.type === 'yes_no' ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('auditsWeb.builder.expected')}
            </Text>
            <SegmentedControl
              value={d.expected}
              onChange={(v) => set({ expected: v as 'yes' | 'no' })}
              data={[
                { value: 'yes', label: t('audits.answers.yes') },
                { value: 'no', label: t('audits.answers.no') },
              ]}
              aria-label={t('auditsWeb.builder.expected')}
            />
          </div>
          <Switch
            mt={{ xs: 28 }}
            label={t('auditsWeb.builder.allowNa')}
            checked={d.allow_na}
            onChange={(ev) => set({ allow_na: ev.currentTarget.checked })}
          />
        </SimpleGrid>
      ) : null}

      {d.type === 'number' ? (
        <SimpleGrid cols={2} spacing="sm">
          <NumberInput
            label={t('auditsWeb.builder.min')}
            value={d.min ?? ''}
            onChange={(n) => set({ min: n === '' ? null : Number(n) })}
            error={e['min']}
          />
          <NumberInput
            label={t('auditsWeb.builder.max')}
            value={d.max ?? ''}
            onChange={(n) => set({ max: n === '' ? null : Number(n) })}
            error={e['max']}
          />
        </SimpleGrid>
      ) : null}

      {props.scoring && scoresItself(d) ? (
        <NumberInput
          label={t('audits.fields.points')}
          description={d.type === 'number' ? t('auditsWeb.builder.pointsNumber') : t('auditsWeb.builder.pointsYesNo')}
          min={0}
          max={100}
          step={0.5}
          decimalScale={1}
          value={d.score}
          onChange={(n) => set({ score: Number(n) || 0 })}
          error={e['score']}
          w={{ base: '100%', xs: 200 }}
        />
      ) : null}

      {d.type === 'choice' ? (
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('auditsWeb.builder.options')}
          </Text>
          {own('options') ? (
            <Text size="xs" c="red" role="alert">
              {own('options')}
            </Text>
          ) : null}
          {d.options.map((o, i) => (
            <Group key={o.key ?? `new-${i}`} gap={6} wrap="wrap" align="flex-end">
              <TextInput
                aria-label={t('auditsWeb.builder.optionN', { n: i + 1 })}
                placeholder={t('auditsWeb.builder.optionN', { n: i + 1 })}
                value={o.label}
                onChange={(ev) => setOption(i, { label: ev.currentTarget.value })}
                style={{ flex: '1 1 160px' }}
              />
              {props.scoring ? (
                <NumberInput
                  aria-label={t('auditsWeb.builder.optionPoints', { n: i + 1 })}
                  placeholder={t('audits.fields.points')}
                  min={0}
                  max={100}
                  step={0.5}
                  decimalScale={1}
                  value={o.score}
                  onChange={(n) => setOption(i, { score: Number(n) || 0 })}
                  w={90}
                />
              ) : null}
              <Checkbox
                label={t('audits.answers.failed')}
                checked={o.failure}
                onChange={(ev) => setOption(i, { failure: ev.currentTarget.checked })}
                mb={8}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('auditsWeb.builder.removeOption', { n: i + 1 })}
                disabled={d.options.length <= 2}
                onClick={() => set({ options: d.options.filter((_, j) => j !== i) })}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            w="fit-content"
            disabled={d.options.length >= AUDIT_OPTIONS_MAX}
            onClick={() => set({ options: [...d.options, blankOption()] })}
          >
            {t('auditsWeb.builder.addOption')}
          </Button>
          <Group gap="md" wrap="wrap">
            <Switch
              label={t('auditsWeb.builder.multiple')}
              checked={d.multiple}
              onChange={(ev) => set({ multiple: ev.currentTarget.checked })}
            />
            <Switch
              label={t('auditsWeb.builder.addOptions')}
              checked={d.add_options}
              onChange={(ev) => set({ add_options: ev.currentTarget.checked })}
            />
            <Switch
              label={t('auditsWeb.builder.allowNa')}
              checked={d.allow_na}
              onChange={(ev) => set({ allow_na: ev.currentTarget.checked })}
            />
          </Group>
        </Stack>
      ) : null}

      <TagsInput
        label={t('auditsWeb.builder.rows')}
        description={t('auditsWeb.builder.rowsHelp')}
        value={d.row_headers}
        onChange={(rows) => set({ row_headers: rows })}
        error={own('row_headers')}
      />

      <Divider label={t('auditsWeb.builder.condition')} labelPosition="left" />
      {props.sources.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('auditsWeb.builder.noParents')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('auditsWeb.builder.parent')}
            placeholder={t('auditsWeb.builder.always')}
            clearable
            searchable
            data={props.sources.map((s) => ({ value: s.id, label: `${s.section} · ${s.label}` }))}
            value={d.condition?.question ?? null}
            onChange={(v) =>
              set({ condition: v ? { question: v, option: props.sources.find((s) => s.id === v)?.options[0]?.key ?? '' } : null })
            }
            error={own('condition')}
            comboboxProps={{ withinPortal: true }}
          />
          {source ? (
            <Select
              label={t('auditsWeb.builder.parentAnswer')}
              data={source.options.map((o) => ({ value: o.key, label: o.label }))}
              value={d.condition?.option ?? null}
              onChange={(v) => v && set({ condition: { question: source.id, option: v } })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
        </SimpleGrid>
      )}

      <Divider label={t('auditsWeb.builder.notify')} labelPosition="left" />
      <Switch
        label={t('auditsWeb.builder.notifyOn')}
        checked={d.notify !== null}
        onChange={(ev) =>
          set({
            notify: ev.currentTarget.checked
              ? { when: canFail(d) ? 'failure' : 'any', options: [], user_ids: [], roles: ['head_of_safety'] }
              : null,
          })
        }
      />
      {d.notify ? (
        <Stack gap="xs">
          {own('notify') ? (
            <Text size="xs" c="red" role="alert">
              {own('notify')}
            </Text>
          ) : null}
          <Select
            label={t('auditsWeb.builder.notifyWhen')}
            data={AUDIT_NOTIFY_WHEN.filter((w) => w === 'any' || (w === 'failure' ? canFail(d) : optionKeys.length > 0)).map((w) => ({
              value: w,
              label: t(`audits.notifyWhen.${w}`),
            }))}
            value={d.notify.when}
            onChange={(v) => v && d.notify && set({ notify: { ...d.notify, when: v as AuditNotifyWhen } })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {d.notify.when === 'options' ? (
            <MultiSelect
              label={t('auditsWeb.builder.notifyOptions')}
              data={optionKeys}
              value={d.notify.options}
              onChange={(v) => d.notify && set({ notify: { ...d.notify, options: v } })}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          <Checkbox.Group
            label={t('auditsWeb.builder.notifyRoles')}
            value={d.notify.roles}
            onChange={(v) => d.notify && set({ notify: { ...d.notify, roles: v as AuditNotifyRole[] } })}
          >
            <Stack gap={4} mt={4}>
              {AUDIT_NOTIFY_ROLES.map((r) => (
                <Checkbox key={r} value={r} label={t(`audits.notifyRoles.${r}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <MultiSelect
            label={t('auditsWeb.builder.notifyUsers')}
            searchable
            data={props.users.map((u) => ({ value: u.id, label: `${u.full_name} (${u.email})` }))}
            value={d.notify.user_ids}
            onChange={(v) => d.notify && set({ notify: { ...d.notify, user_ids: v } })}
            nothingFoundMessage={t('kit.noResults')}
            comboboxProps={{ withinPortal: true }}
          />
        </Stack>
      ) : null}

      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={props.onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={props.busy}>
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
