import type { ObservationImportResult } from '@bulwark/domain';
import { Alert, Button, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { uploadForm, useDownload } from '../kit/index.js';
import { useObservationsRefresh } from './observations-api.js';

export type RowProblem = { row: number; field: string; message: string };

/**
 * The refusal of an import, whichever way it comes: the answer's `errors` list, or field texts keyed
 * "<row>.<column>" on a refused call. Sorted by row, then column.
 */
export function importProblems(result: Pick<ObservationImportResult, 'errors'> | null, fields: Record<string, string> = {}): RowProblem[] {
  const fromFields = Object.entries(fields).flatMap(([key, message]) => {
    const m = /^(\d+)\.(.+)$/.exec(key);
    return m ? [{ row: Number(m[1]), field: m[2]!, message }] : [];
  });
  return [...(result?.errors ?? []), ...fromFields].sort((a, b) => a.row - b.row || a.field.localeCompare(b.field));
}

/** Import from Excel: the template, the upload, and either "N imported" or every wrong row (nothing is written then). */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { http } = useServices();
  const download = useDownload();
  const refresh = useObservationsRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  const reset = () => {
    setProblems([]);
    setMessage(null);
  };
  const close = () => {
    setFile(null);
    reset();
    onClose();
  };

  async function send() {
    if (!file) {
      setMessage(t('storage.noFile'));
      return;
    }
    setBusy(true);
    reset();
    try {
      const result = await http.post<ObservationImportResult>('/api/observations_bulk_upload', uploadForm(file), { notify: false });
      const rows = importProblems(result);
      if (rows.length > 0) {
        setProblems(rows);
        setMessage(t('observations.import.failed'));
        return;
      }
      notifySuccess(t('observations.import.done', { count: result?.imported ?? 0 }));
      await refresh();
      close();
    } catch (error) {
      if (isApiError(error)) {
        const rows = importProblems(null, error.fields);
        setProblems(rows);
        setMessage(rows.length > 0 ? t('observations.import.failed') : (error.fields['file'] ?? error.message));
      } else {
        setMessage(t('errors.somethingWentWrong'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t('observations.import.title')} size="lg">
      <Stack>
        <Text size="sm">{t('observationsWeb.import.help')}</Text>
        <Group>
          <Button variant="default" onClick={() => void download('/api/observations_bulk_upload/template').catch(() => undefined)}>
            {t('observations.import.template')}
          </Button>
        </Group>
        <FileInput
          label={t('observationsWeb.import.choose')}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={(f) => { setFile(f); reset(); }}
          clearable
        />
        {message ? <Alert color="red" role="alert">{message}</Alert> : null}
        {problems.length > 0 ? (
          <Table.ScrollContainer minWidth={360} mah={300}>
            <Table striped>
              <Table.Caption>{t('observationsWeb.import.report')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('observations.import.row')}</Table.Th>
                  <Table.Th>{t('observationsWeb.import.column')}</Table.Th>
                  <Table.Th>{t('observationsWeb.import.problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.map((p) => (
                  <Table.Tr key={`${p.row}.${p.field}`}>
                    <Table.Td>{p.row}</Table.Td>
                    <Table.Td>{columnLabel(p.field, t)}</Table.Td>
                    <Table.Td>{p.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
          <Button onClick={() => void send()} loading={busy}>{t('observationsWeb.import.upload')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A template column by its header text, so the report names what the person sees in the sheet. */
function columnLabel(field: string, t: (key: string) => string): string {
  const key = `observations.import.columns.${field}`;
  const text = t(key);
  return text === key ? field : text;
}
