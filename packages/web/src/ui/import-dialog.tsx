import { Alert, Button, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/api-error.js';
import { notifySuccess } from '../app/notify.js';
import type { DownloadedFile } from '../api/http.js';
import { saveFile } from './files.js';

export type ImportRowProblem = { row: number; field: string; message: string };

/** What an import call answers: how many rows were written, and the wrong rows when it wrote none. */
export type ImportOutcome = { imported: number; errors?: readonly ImportRowProblem[] };

/**
 * The refusal of an import, whichever way it comes: the answer's `errors` list, or field texts keyed
 * "<row>.<column>" on a refused call (other fields, such as `file`, are not row problems).
 * Sorted by row, then column.
 */
export function importProblems(result: Pick<ImportOutcome, 'errors'> | null, fields: Record<string, string> = {}): ImportRowProblem[] {
  const fromFields = Object.entries(fields).flatMap(([key, message]) => {
    const m = /^(\d+)\.(.+)$/.exec(key);
    return m ? [{ row: Number(m[1]), field: m[2]!, message }] : [];
  });
  return [...(result?.errors ?? []), ...fromFields].sort((a, b) => a.row - b.row || a.field.localeCompare(b.field));
}

/** The i18n keys of one module's import dialog. `done` receives `{ count }`. */
export type ImportTexts = {
  title: string;
  help: string;
  template: string;
  choose: string;
  upload: string;
  /** Said when Upload is pressed with no file chosen. */
  noFile: string;
  /** Said above the table of wrong rows. */
  failed: string;
  done: string;
  /** Headers of the wrong-rows table. */
  row: string;
  field: string;
  message: string;
  /** A caption naming the wrong-rows table, if the module has one. */
  report?: string;
};

type Props = {
  opened: boolean;
  onClose: () => void;
  /** The Excel template, saved as a download. */
  template: () => Promise<DownloadedFile>;
  /** Sends the workbook (multipart `file`) and answers an ImportOutcome. */
  upload: (file: File) => Promise<ImportOutcome>;
  /** Brings the module's lists up to date after rows were written. */
  onImported: () => Promise<unknown>;
  texts: ImportTexts;
  /** How a wrong row's column is named in the table; the field key as it is by default. */
  fieldLabel?: (field: string) => ReactNode;
};

/**
 * Import from Excel: the template, the upload, and either "N imported" or every wrong row. Imports are
 * all or nothing, so a report of wrong rows means nothing was written.
 */
export function ExcelImportDialog({ opened, onClose, template, upload, onImported, texts, fieldLabel = (f) => f }: Props) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<ImportRowProblem[]>([]);
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
      setMessage(t(texts.noFile));
      return;
    }
    setBusy(true);
    reset();
    try {
      const result = await upload(file);
      const rows = importProblems(result);
      if (rows.length > 0) {
        setProblems(rows);
        setMessage(t(texts.failed));
        return;
      }
      notifySuccess(t(texts.done, { count: result?.imported ?? 0 }));
      await onImported();
      close();
    } catch (error) {
      if (isApiError(error)) {
        const rows = importProblems(null, error.fields);
        setProblems(rows);
        setMessage(rows.length > 0 ? t(texts.failed) : (error.fields['file'] ?? error.message));
      } else {
        setMessage(t('errors.somethingWentWrong'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t(texts.title)} size="lg">
      <Stack>
        <Text size="sm">{t(texts.help)}</Text>
        <Group>
          <Button variant="default" onClick={() => void template().then(saveFile, () => undefined)}>
            {t(texts.template)}
          </Button>
        </Group>
        <FileInput
          label={t(texts.choose)}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={(f) => {
            setFile(f);
            reset();
          }}
          clearable
        />
        {message ? (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        ) : null}
        {problems.length > 0 ? (
          <Table.ScrollContainer minWidth={360} mah={300}>
            <Table striped>
              {texts.report ? <Table.Caption>{t(texts.report)}</Table.Caption> : null}
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t(texts.row)}</Table.Th>
                  <Table.Th>{t(texts.field)}</Table.Th>
                  <Table.Th>{t(texts.message)}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.map((p) => (
                  <Table.Tr key={`${p.row}.${p.field}`}>
                    <Table.Td>{p.row}</Table.Td>
                    <Table.Td>{fieldLabel(p.field)}</Table.Td>
                    <Table.Td>{p.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void send()} loading={busy}>
            {t(texts.upload)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
