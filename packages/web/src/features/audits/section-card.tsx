import { auditChoiceMaxScore, type AuditFormData, type AuditSection } from '@bulwark/domain';
import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useConfirm } from '../../ui/index.js';
import { useAuditTemplateCommands } from './audit-templates-api.js';
import { conditionSources, draftOf, moveItem, newDraft, optionsOf, questionById, toInput, type QuestionDraft } from './builder-model.js';
import { QuestionEditor } from './question-editor.js';
import { points } from './run-model.js';
import { DragGrip, MoveButtons, SortableList, type DragHandle } from '../../ui/sortable-list.js';

type Editing = { draft: QuestionDraft; index: number } | null;

/** The field errors a section save gave for one question (`questions.<i>.<field>` → `<field>`). */
export function errorsOf(fields: Record<string, string>, index: number): Record<string, string> {
  const prefix = `questions.${index}.`;
  return Object.fromEntries(Object.entries(fields).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
}

/**
 * One section of the audit template builder: its name and switch, its questions in order (dragged, or
 * moved with the buttons), each edited in a dialog; every change saves the section whole, as the
 * server keeps it.
 */
export function SectionCard(props: {
  templateId: string;
  section: AuditSection;
  sections: AuditSection[];
  index: number;
  handle: DragHandle;
  scoring: boolean;
  users: AuditFormData['users'];
  onMoveSection: (from: number, to: number) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { section: s, templateId } = props;
  const commands = useAuditTemplateCommands(templateId);
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const questions = [...s.questions].sort((a, b) => a.position - b.position);
  const drafts = questions.map(draftOf);
  const words = { yes: t('audits.answers.yes'), no: t('audits.answers.no'), na: t('audits.answers.na') };

  /** Saves the section with these questions; answers whether it was saved. */
  async function save(list: QuestionDraft[], name = s.name, index?: number): Promise<boolean> {
    setBusy(true);
    setFieldErrors({});
    setMessage(null);
    try {
      await commands.saveSection(templateId, s.id, { name, questions: list.map(toInput) });
      return true;
    } catch (error) {
      if (isApiError(error)) {
        setFieldErrors(error.fields);
        const own = index === undefined ? {} : errorsOf(error.fields, index);
        const text = Object.keys(own).length > 0 ? null : (Object.values(error.fields)[0] ?? error.message);
        if (editing) setMessage(text);
        else notifyError(text ?? error.message);
      } else notifyError(t('errors.somethingWentWrong'));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function saveEdited(draft: QuestionDraft) {
    if (!editing) return;
    const list = [...drafts];
    if (editing.index >= list.length) list.push(draft);
    else list[editing.index] = draft;
    if (await save(list, s.name, editing.index)) {
      setEditing(null);
      notifySuccess(t('auditsWeb.builder.questionSaved'));
    }
  }

  async function remove(i: number) {
    const q = drafts[i]!;
    if (
      !(await confirm({
        message: t('auditsWeb.builder.removeQuestionConfirm', { label: q.label }),
        danger: true,
        confirmLabel: t('kit.delete'),
      }))
    )
      return;
    if (await save(drafts.filter((_, j) => j !== i))) notifySuccess(t('auditsWeb.builder.questionRemoved'));
  }

  async function removeSection() {
    if (
      !(await confirm({
        message: t('auditsWeb.builder.removeSectionConfirm', { name: s.name, count: drafts.length }),
        danger: true,
        confirmLabel: t('kit.delete'),
      }))
    )
      return;
    try {
      await commands.removeSection(templateId, s.id);
      notifySuccess(t('auditsWeb.builder.sectionRemoved'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  function condition(q: QuestionDraft): string | null {
    if (!q.condition) return null;
    const parent = questionById(props.sections, q.condition.question);
    if (!parent) return null;
    const option = optionsOf(parent, words).find((o) => o.key === q.condition?.option)?.label ?? q.condition.option;
    return t('auditsWeb.builder.shownWhen', { question: parent.label, answer: option });
  }

  const editIndex = editing?.index ?? drafts.length;
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'sm' }} data-section={s.name} style={{ opacity: s.active ? 1 : 0.75 }}>
      <Group gap={4} wrap="nowrap" align="center">
        {!props.readOnly ? <DragGrip handle={props.handle} label={t('common.drag.grip', { name: s.name })} /> : null}
        {renaming !== null ? (
          <TextInput
            aria-label={t('auditsWeb.builder.sectionName')}
            value={renaming}
            onChange={(e) => setRenaming(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void save(drafts, renaming).then((ok) => ok && setRenaming(null));
              if (e.key === 'Escape') setRenaming(null);
            }}
            onBlur={() =>
              void (renaming.trim() && renaming !== s.name ? save(drafts, renaming) : Promise.resolve()).then(() => setRenaming(null))
            }
            style={{ flex: 1 }}
            autoFocus
          />
        ) : (
          <Text fw={600} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {props.index + 1}. {s.name}
          </Text>
        )}
        {!props.readOnly ? (
          <>
            <MoveButtons index={props.index} count={props.sections.length} name={s.name} onMove={props.onMoveSection} />
            {/* No focus back to "⋯" on close: "Rename" moves it to the name's field, which would lose it (and close). */}
            <Menu position="bottom-end" withinPortal returnFocus={false}>
              <Menu.Target>
                <ActionIcon variant="subtle" size="lg" aria-label={t('auditsWeb.builder.sectionMenu', { name: s.name })}>
                  ⋯
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setRenaming(s.name)}>{t('auditsWeb.builder.rename')}</Menu.Item>
                {props.sections.length > 1 ? (
                  <Menu.Item color="red" onClick={() => void removeSection()}>
                    {t('auditsWeb.builder.removeSection')}
                  </Menu.Item>
                ) : null}
              </Menu.Dropdown>
            </Menu>
          </>
        ) : null}
      </Group>
      <Group gap="xs" mb="xs" mt={4} wrap="wrap">
        <Switch
          size="xs"
          label={t('auditsWeb.builder.sectionOn')}
          checked={s.active}
          disabled={props.readOnly}
          onChange={(e) =>
            void commands
              .switchSection(templateId, s.id, e.currentTarget.checked)
              .catch((error: unknown) => notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong')))
          }
        />
        <Text size="xs" c="dimmed">
          {t('auditsWeb.builder.questionsN', { count: drafts.length })}
        </Text>
      </Group>

      <Stack gap="xs">
        {drafts.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('auditsWeb.builder.noQuestions')}
          </Text>
        ) : (
          <SortableList
            items={drafts}
            id={(q) => q.id ?? q.key ?? ''}
            label={t('auditsWeb.builder.questionsOf', { name: s.name })}
            name={(q) => q.label}
            onMove={(from, to) => void save(moveItem(drafts, from, to))}
            disabled={props.readOnly || busy}
          >
            {(q, i, handle) => {
              const saved = questions[i];
              const worth = saved ? (saved.type === 'choice' ? auditChoiceMaxScore(saved) : saved.score) : 0;
              const when = condition(q);
              return (
                <Paper withBorder radius="sm" p={6} bg="var(--mantine-color-gray-0)" style={{ marginLeft: q.condition ? 16 : 0 }}>
                  <Group gap={4} wrap="nowrap" align="flex-start">
                    {!props.readOnly ? <DragGrip handle={handle} label={t('common.drag.grip', { name: q.label })} /> : null}
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {q.label}
                        {q.required ? (
                          <Text span c="red">
                            {' '}
                            *
                          </Text>
                        ) : null}
                      </Text>
                      <Group gap={4} wrap="wrap">
                        <Badge size="xs" variant="outline" color="gray">
                          {t(`audits.responseTypes.${q.type}`)}
                        </Badge>
                        {props.scoring && worth > 0 ? (
                          <Badge size="xs" variant="light" color="blue">
                            {t('auditsWeb.run.points', { count: worth, n: points(worth) })}
                          </Badge>
                        ) : null}
                        {q.critical ? (
                          <Badge size="xs" variant="light" color="red">
                            {t('audits.answers.critical')}
                          </Badge>
                        ) : null}
                        {q.notify ? (
                          <Badge size="xs" variant="light" color="grape">
                            {t('auditsWeb.builder.notifies')}
                          </Badge>
                        ) : null}
                      </Group>
                      {when ? (
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {when}
                        </Text>
                      ) : null}
                    </Stack>
                    {!props.readOnly ? (
                      <Group gap={0} wrap="nowrap">
                        <MoveButtons
                          index={i}
                          count={drafts.length}
                          name={q.label}
                          onMove={(a, b) => void save(moveItem(drafts, a, b))}
                          disabled={busy}
                        />
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" size="lg" aria-label={t('auditsWeb.builder.questionMenu', { label: q.label })}>
                              ⋯
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setEditing({ draft: q, index: i })}>{t('kit.edit')}</Menu.Item>
                            <Menu.Item color="red" onClick={() => void remove(i)}>
                              {t('auditsWeb.builder.removeQuestion')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                    ) : null}
                  </Group>
                </Paper>
              );
            }}
          </SortableList>
        )}
        {!props.readOnly ? (
          <Button variant="light" size="xs" w="fit-content" onClick={() => setEditing({ draft: newDraft('yes_no'), index: drafts.length })}>
            {t('auditsWeb.builder.addQuestion')}
          </Button>
        ) : null}
      </Stack>

      <QuestionEditor
        draft={editing?.draft ?? null}
        sources={conditionSources(props.sections, s.id, editIndex, words)}
        scoring={props.scoring}
        users={props.users}
        errors={errorsOf(fieldErrors, editIndex)}
        message={message}
        busy={busy}
        onCancel={() => {
          setEditing(null);
          setFieldErrors({});
          setMessage(null);
        }}
        onSave={(d) => void saveEdited(d)}
      />
      {confirmDialog}
    </Paper>
  );
}
