import { AUDIT_ATTACHMENTS_MAX, AUDIT_NOTES_MAX, type Audit } from '@bulwark/domain';
import { Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { useAuditCommands } from './audits-api.js';
import { SaveLine } from './question-card.js';
import type { FileRef } from './run-model.js';
import type { SaveStatus } from './save-queue.js';
import { AuditFiles, type AuditUpload } from './uploads.js';

/** The audit's own notes and attachments (spec 001 §3 Audit: attachments, notes), saved when the auditor leaves the field or adds a file. */
export function NotesCard({ audit: a, editable, upload }: { audit: Audit; editable: boolean; upload: AuditUpload | null }) {
  const { t } = useTranslation();
  const commands = useAuditCommands();
  const [notes, setNotes] = useState(a.notes ?? '');
  const [files, setFiles] = useState<FileRef[]>(a.attachments);
  const [status, setStatus] = useState<SaveStatus | undefined>(undefined);

  async function save(nextNotes: string, nextFiles: FileRef[]) {
    setStatus({ state: 'saving' });
    try {
      await commands.notes(a.id, { notes: nextNotes.trim() || null, attachment_ids: nextFiles.map((f) => f.id) });
      setStatus({ state: 'saved' });
    } catch (error) {
      setStatus({
        state: 'refused',
        message: isApiError(error) ? (Object.values(error.fields)[0] ?? error.message) : t('errors.somethingWentWrong'),
      });
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="audit-notes">
      <Stack gap="xs">
        <Title order={3} size="h5" id="audit-notes">
          {t('auditsWeb.run.notesTitle')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('auditsWeb.run.notesHelp')}
        </Text>
        <Textarea
          aria-label={t('audits.fields.notes')}
          autosize
          minRows={3}
          maxLength={AUDIT_NOTES_MAX}
          disabled={!editable}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          onBlur={() => (notes !== (a.notes ?? '') ? void save(notes, files) : undefined)}
        />
        <AuditFiles
          label={t('audits.fields.attachments')}
          files={files}
          upload={upload}
          accept="any"
          max={AUDIT_ATTACHMENTS_MAX}
          disabled={!editable}
          onChange={(next) => {
            setFiles(next);
            void save(notes, next);
          }}
        />
        <SaveLine status={status} />
      </Stack>
    </Paper>
  );
}
