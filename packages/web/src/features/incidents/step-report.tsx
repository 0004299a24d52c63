import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReportForm } from './report-form.js';
import type { StepProps } from './step-props.js';
import { FilesView, HistoryView, ReportFieldsView, VictimsView } from './view-report.js';

/** Step 1: the report as recorded; the team and incident managers may edit it (rate it, complete it). */
export function StepReport({ incident: o, formData }: StepProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  if (editing) return <ReportForm formData={formData} record={o} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />;
  return (
    <Stack gap="sm">
      {o.permissions.edit_report ? (
        <Group>
          <Button onClick={() => setEditing(true)}>
            {o.rating_pending ? t('incidentsWeb.form.rateAndEdit') : t('incidentsWeb.form.edit')}
          </Button>
        </Group>
      ) : null}
      <ReportFieldsView o={o} />
      <VictimsView o={o} />
      <FilesView
        files={o.attachments}
        title={t('incidents.fields.attachments')}
        id={`files-${o.id}`}
        empty={t('incidents.report.noAttachments')}
      />
      <HistoryView o={o} />
    </Stack>
  );
}
