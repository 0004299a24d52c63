import { Alert, Button, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { uploadForm, useDownload } from '../kit/index.js';
import { useUsersRefresh } from './users-api.js';

type RowProblem = { row: number; field: string; message: string };

/** The refusal's fields are keyed "<row>.<column>"; they become the per-row report. */
export function rowProblems(fields: Record<string, string>): RowProblem[] {
  return Object.entries(fields)
    .map(([key, message]) => {
      const match = /^(\d+)\.(.+)$/.exec(key);
      return match ? { row: Number(match[1]), field: match[2]!, message } : null;
    })
    .filter((p): p is RowProblem => p !== null)
    .sort((a, b) => a.row - b.row || a.field.localeCompare(b.field));
}

/** Bulk import: template download, upload, and either "N invited" or the list of wrong rows. */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { http } = useServices();
  const download = useDownload();
  const refresh = useUsersRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  const close = () => {
    setFile(null);
    setProblems([]);
    setMessage(null);
    onClose();
  };

  async function send() {
    if (!file) {
      setMessage(t('validation.required'));
      return;
    }
    setBusy(true);
    setProblems([]);
    setMessage(null);
    try {
      const result = await http.post<{ imported: number }>('/api/users/import', uploadForm(file), { notify: false });
      notifySuccess(t('users.notice.imported', { count: result?.imported ?? 0 }));
      await refresh();
      close();
    } catch (error) {
      if (isApiError(error)) {
        const rows = rowProblems(error.fields);
        setProblems(rows);
        setMessage(rows.length > 0 ? t('users.importDialog.failed') : (error.fields['file'] ?? error.message));
      } else {
        setMessage(t('errors.somethingWentWrong'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t('users.importDialog.title')} size="lg">
      <Stack>
        <Text size="sm">{t('users.importDialog.help')}</Text>
        <Group>
          <Button variant="default" onClick={() => void download('/api/users/import_template').catch(() => {})}>
            {t('users.importDialog.template')}
          </Button>
        </Group>
        <FileInput
          label={t('users.importDialog.choose')}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={(f) => { setFile(f); setProblems([]); setMessage(null); }}
          clearable
        />
        {message ? <Alert color="red" role="alert">{message}</Alert> : null}
        {problems.length > 0 ? (
          <Table.ScrollContainer minWidth={360} mah={300}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('users.importDialog.row')}</Table.Th>
                  <Table.Th>{t('users.importDialog.field')}</Table.Th>
                  <Table.Th>{t('users.importDialog.message')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.map((p) => (
                  <Table.Tr key={`${p.row}.${p.field}`}>
                    <Table.Td>{p.row}</Table.Td>
                    <Table.Td>{p.field}</Table.Td>
                    <Table.Td>{p.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
          <Button onClick={() => void send()} loading={busy}>{t('users.importDialog.upload')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
