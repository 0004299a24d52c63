import { auditUpdateBody, type Audit, type AuditFormData } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useAuditCommands } from './audits-api.js';

/** Audit update: the auditor (told when changed), auditee, area and window, until the audit is completed. */
export function EditDialog({ audit: a, formData, onClose }: { audit: Audit; formData: AuditFormData; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useAuditCommands();
  const form = useFormSubmit();
  const [v, setV] = useState({
    auditor_id: a.auditor.id,
    auditee_id: a.auditee?.id ?? null,
    site_node_id: a.site_node?.id ?? null,
    due_date: a.due_date,
    window_end: a.window_end,
  });
  const set = (change: Partial<typeof v>) => setV((x) => ({ ...x, ...change }));
  const nodes = formData.sites.find((s) => s.id === a.site.id)?.nodes ?? [];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (form.refuse(validate(auditUpdateBody, v, t).errors)) return;
    await form.run(async () => {
      await commands.update(a.id, v);
      notifySuccess(t('auditsWeb.record.saved'));
      onClose();
    });
  }
  const e = form.errors;
  return (
    <Modal opened onClose={onClose} title={t('auditsWeb.record.edit')} size="lg">
      <form onSubmit={(ev) => void submit(ev)} noValidate>
        <Stack gap="sm">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('audits.fields.auditor')}
              withAsterisk
              searchable
              allowDeselect={false}
              data={formData.auditors.map((u) => ({ value: u.id, label: u.full_name }))}
              value={v.auditor_id}
              onChange={(x) => x && set({ auditor_id: x })}
              error={e['auditor_id']}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label={t('audits.fields.auditee')}
              clearable
              searchable
              data={formData.users.map((u) => ({ value: u.id, label: u.full_name }))}
              value={v.auditee_id}
              onChange={(x) => set({ auditee_id: x })}
              error={e['auditee_id']}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label={t('audits.fields.area')}
              clearable
              data={nodes.map((n) => ({ value: n.id, label: n.full_name }))}
              value={v.site_node_id}
              onChange={(x) => set({ site_node_id: x })}
              error={e['site_node_id']}
              comboboxProps={{ withinPortal: true }}
            />
            <div />
            <TextInput
              type="date"
              label={t('audits.fields.dueDate')}
              value={v.due_date}
              onChange={(ev) => set({ due_date: ev.currentTarget.value })}
              error={e['due_date']}
            />
            <TextInput
              type="date"
              label={t('audits.fields.windowEnd')}
              value={v.window_end}
              onChange={(ev) => set({ window_end: ev.currentTarget.value })}
              error={e['window_end']}
            />
          </SimpleGrid>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
