import type { PermitSection } from '@bulwark/domain';
import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useConfirm } from '../../ui/index.js';
import { conditionSources, draftOf, moveItem, newDraft, questionLabel, toInput, type QuestionDraft } from './builder-model.js';
import { useTemplateCommands } from './permit-templates-api.js';
import { QuestionEditor, type EditorResult } from './question-editor.js';
import { DragGrip, MoveButtons, SortableList, type DragHandle } from '../../ui/sortable-list.js';

type Editing = { draft: QuestionDraft; index: number } | null;

/** The field errors a section save gave for one question (`questions.<i>.<field>` → `<field>`). */
function errorsOf(fields: Record<string, string>, index: number): Record<string, string> {
  const prefix = `questions.${index}.`;
  return Object.fromEntries(Object.entries(fields).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
}

/**
 * One section of the template builder: its name and switch, its questions in order (dragged or moved
 * with the buttons), each edited in a dialog; every change saves the section whole, as the server
 * keeps it.
 */
export function SectionCard(props: {
  templateId: string;
  section: PermitSection;
  sections: PermitSection[];
  index: number;
  handle: DragHandle;
  onMoveSection: (from: number, to: number) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { section: s, templateId } = props;
  const commands = useTemplateCommands(templateId);
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const drafts = s.questions.map(draftOf);

  /** Saves the section with these questions; answers whether it was saved. */
  async function save(questions: QuestionDraft[], name = s.name, index?: number, image?: File | null): Promise<boolean> {
    setBusy(true);
    setFieldErrors({});
    setMessage(null);
    try {
      const saved = await commands.saveSection(templateId, s.id, { name, questions: questions.map(toInput) });
      if (image && index !== undefined) {
        const q = saved.questions[index];
        if (q) await commands.referenceImage(q.id, image, () => undefined);
      }
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

  async function saveEdited({ draft, image }: EditorResult) {
    if (!editing) return;
    const list = [...drafts];
    if (editing.index >= list.length) list.push(draft);
    else list[editing.index] = draft;
    if (await save(list, s.name, editing.index, image)) {
      setEditing(null);
      notifySuccess(t('permitsWeb.builder.questionSaved'));
    }
  }

  async function remove(i: number) {
    const q = drafts[i]!;
    if (!(await confirm({ message: t('permitsWeb.builder.removeQuestionConfirm', { label: q.label }), danger: true }))) return;
    if (await save(drafts.filter((_, j) => j !== i))) notifySuccess(t('permitsWeb.builder.questionRemoved'));
  }

  async function removeSection() {
    if (!(await confirm({ message: t('permitsWeb.builder.removeSectionConfirm', { name: s.name }), danger: true }))) return;
    try {
      await commands.removeSection(templateId, s.id);
      notifySuccess(t('permitsWeb.builder.sectionRemoved'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const editIndex = editing?.index ?? drafts.length;
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'sm' }} data-section={s.name}>
      <Group gap={4} wrap="nowrap" align="center">
        {!props.readOnly ? <DragGrip handle={props.handle} label={t('common.drag.grip', { name: s.name })} /> : null}
        {renaming !== null ? (
          <TextInput
            aria-label={t('permitsWeb.builder.sectionName')}
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
            {s.name}
          </Text>
        )}
        {!props.readOnly ? (
          <>
            <MoveButtons index={props.index} count={props.sections.length} name={s.name} onMove={props.onMoveSection} />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" size="lg" aria-label={t('permitsWeb.builder.sectionMenu', { name: s.name })}>
                  ⋯
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setRenaming(s.name)}>{t('permitsWeb.builder.rename')}</Menu.Item>
                {!s.fixed ? (
                  <Menu.Item color="red" onClick={() => void removeSection()}>
                    {t('permitsWeb.builder.removeSection')}
                  </Menu.Item>
                ) : null}
              </Menu.Dropdown>
            </Menu>
          </>
        ) : null}
      </Group>
      <Group gap="xs" mb="xs" mt={4} wrap="wrap">
        <Badge variant="light" color={s.fixed ? 'blue' : 'gray'} size="sm">
          {t(`permits.sectionKinds.${s.kind}`)}
        </Badge>
        {!s.fixed ? (
          <Switch
            size="xs"
            label={t('permitsWeb.builder.sectionOn')}
            checked={s.active}
            disabled={props.readOnly}
            onChange={(e) =>
              void commands
                .switchSection(templateId, s.id, e.currentTarget.checked)
                .catch(() => notifyError(t('errors.somethingWentWrong')))
            }
          />
        ) : null}
      </Group>

      <Stack gap="xs">
        {drafts.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('permitsWeb.builder.noQuestions')}
          </Text>
        ) : (
          <SortableList
            items={drafts}
            id={(q) => q.id ?? q.key ?? ''}
            label={t('permitsWeb.builder.questionsOf', { name: s.name })}
            name={(q) => q.label}
            onMove={(from, to) => void save(moveItem(drafts, from, to))}
            disabled={props.readOnly || busy}
          >
            {(q, i, handle) => (
              <Paper withBorder radius="sm" p={6} bg="gray.0">
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
                    <Group gap={4}>
                      <Badge size="xs" variant="outline" color="gray">
                        {t(`permits.questionTypes.${q.type}`)}
                      </Badge>
                      {q.reference_image ? (
                        <Badge size="xs" variant="outline" color="gray">
                          {t('permitsWeb.builder.hasImage')}
                        </Badge>
                      ) : null}
                    </Group>
                    {q.condition ? (
                      <Text size="xs" c="dimmed">
                        {t('permitsWeb.builder.shownWhen', {
                          question: questionLabel(props.sections, q.condition.question) ?? '?',
                          answer: q.condition.answer,
                        })}
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
                          <ActionIcon variant="subtle" size="lg" aria-label={t('permitsWeb.builder.questionMenu', { label: q.label })}>
                            ⋯
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setEditing({ draft: q, index: i })}>{t('kit.edit')}</Menu.Item>
                          {!q.fixed ? (
                            <Menu.Item color="red" onClick={() => void remove(i)}>
                              {t('permitsWeb.builder.removeQuestion')}
                            </Menu.Item>
                          ) : null}
                        </Menu.Dropdown>
                      </Menu>
                    </Group>
                  ) : null}
                </Group>
              </Paper>
            )}
          </SortableList>
        )}
        {!props.readOnly ? (
          <Button
            variant="light"
            size="xs"
            w="fit-content"
            onClick={() => setEditing({ draft: newDraft(s.kind === 'closure' ? 'radio_button' : 'text_field'), index: drafts.length })}
          >
            {t('permitsWeb.builder.addQuestion')}
          </Button>
        ) : null}
      </Stack>

      <QuestionEditor
        draft={editing?.draft ?? null}
        sources={conditionSources(props.sections, s.id, editIndex)}
        errors={errorsOf(fieldErrors, editIndex)}
        message={message}
        busy={busy}
        onCancel={() => {
          setEditing(null);
          setFieldErrors({});
          setMessage(null);
        }}
        onSave={(r) => void saveEdited(r)}
      />
      {confirmDialog}
    </Paper>
  );
}
