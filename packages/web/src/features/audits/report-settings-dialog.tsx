import { AUDIT_REPORT_PARTS, type AuditFile, type AuditReportPart, type AuditReportSettings } from '@bulwark/domain';
import {
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { StoredImage } from '../../ui/index.js';
import { useReportSettings, useReportSettingsCommands } from './audits-api.js';

const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/gif'];
const LOGO_MAX = 10 * 1024 * 1024;

/**
 * The organisation's audit report settings (Audit Template update): the logo, the parts every report
 * and PDF includes, and a line under the title.
 */
export function ReportSettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useReportSettings();
  return (
    <Modal opened onClose={onClose} title={t('auditsWeb.reportSettings.title')} size="lg">
      {settings.data ? (
        <SettingsForm settings={settings.data} onClose={onClose} />
      ) : settings.isError ? (
        <Alert color="red" role="alert">
          {t('errors.somethingWentWrong')}
        </Alert>
      ) : (
        <Group justify="center" p="md">
          <Loader aria-label={t('common.loading')} />
        </Group>
      )}
    </Modal>
  );
}

function SettingsForm({ settings, onClose }: { settings: AuditReportSettings; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useReportSettingsCommands();
  const form = useFormSubmit();
  const [logo, setLogo] = useState<AuditFile | null>(settings.logo);
  const [include, setInclude] = useState<Record<AuditReportPart, boolean>>(settings.include);
  const [header, setHeader] = useState(settings.header_text ?? '');
  const [progress, setProgress] = useState<number | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);

  async function upload(file: File | null) {
    if (!file) return;
    setLogoError(null);
    if (!LOGO_TYPES.includes(file.type)) return setLogoError(t('auditsWeb.reportSettings.logoKinds'));
    if (file.size > LOGO_MAX) return setLogoError(t('auditsWeb.reportSettings.logoKinds'));
    setProgress(0);
    try {
      setLogo(await commands.uploadLogo(file, setProgress));
    } catch (error) {
      setLogoError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    } finally {
      setProgress(null);
    }
  }

  async function save() {
    await form.run(async () => {
      await commands.save({ logo_file_id: logo?.id ?? null, include, header_text: header.trim() || null });
      notifySuccess(t('kit.saved'));
      onClose();
    });
  }

  return (
    <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void save())}>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('auditsWeb.reportSettings.help')}
      </Text>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {t('auditsWeb.reportSettings.logo')}
        </Text>
        <Group gap="sm" wrap="wrap" align="center">
          {logo ? (
            <Paper withBorder radius="sm" p={4}>
              <StoredImage url={logo.url} alt={t('auditsWeb.report.logo')} h={48} w="auto" fit="contain" />
            </Paper>
          ) : (
            <Text size="sm" c="dimmed">
              {t('auditsWeb.reportSettings.noLogo')}
            </Text>
          )}
          <FileButton onChange={(f) => void upload(f)} accept={LOGO_TYPES.join(',')}>
            {(props) => (
              <Button {...props} variant="light" size="compact-md" disabled={progress !== null}>
                {logo ? t('auditsWeb.reportSettings.changeLogo') : t('auditsWeb.reportSettings.addLogo')}
              </Button>
            )}
          </FileButton>
          {logo ? (
            <Button variant="subtle" color="red" size="compact-md" onClick={() => setLogo(null)}>
              {t('auditsWeb.reportSettings.removeLogo')}
            </Button>
          ) : null}
        </Group>
        {progress !== null ? <Progress value={progress * 100} size="sm" aria-label={t('auditsWeb.reportSettings.logo')} /> : null}
        {logoError || form.errors['logo_file_id'] ? (
          <Text size="sm" c="red" role="alert">
            {logoError ?? form.errors['logo_file_id']}
          </Text>
        ) : null}
      </Stack>
      <Textarea
        label={t('auditsWeb.reportSettings.header')}
        description={t('auditsWeb.reportSettings.headerHelp')}
        autosize
        minRows={2}
        maxLength={300}
        value={header}
        onChange={(e) => setHeader(e.currentTarget.value)}
        error={form.errors['header_text']}
      />
      <Checkbox.Group
        label={t('auditsWeb.reportSettings.parts')}
        value={AUDIT_REPORT_PARTS.filter((p) => include[p])}
        onChange={(on) =>
          setInclude(Object.fromEntries(AUDIT_REPORT_PARTS.map((p) => [p, on.includes(p)])) as Record<AuditReportPart, boolean>)
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt={6}>
          {AUDIT_REPORT_PARTS.map((p) => (
            <Checkbox key={p} value={p} label={t(`audits.reportParts.${p}`)} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={form.busy} disabled={progress !== null}>
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
