import { localDateTimeIn } from '@bulwark/domain';
import { Select, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The fields a staff report and a guest report share, so both say the same thing the same way: the
 * description, the site's local time (never after its present minute), the risk potential with its
 * hint, and the comment.
 */
type TextFieldProps = { value: string; onChange: (value: string) => void; error?: string | undefined };

export function DescriptionField({ value, onChange, error }: TextFieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('observations.fields.description')}
      withAsterisk
      autosize
      minRows={3}
      maxLength={4000}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

export function CommentField({ value, onChange, error }: TextFieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('observations.fields.comment')}
      withAsterisk
      autosize
      minRows={2}
      maxLength={2000}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

export function ObservedAtField({ zone, now, ...field }: TextFieldProps & { zone: string | undefined; now: Date }) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="datetime-local"
      label={t('observations.fields.observedAt')}
      withAsterisk
      description={zone ? t('observations.form.siteTime', { zone }) : t('observationsWeb.form.pickSiteFirst')}
      max={zone ? localDateTimeIn(zone, now) : undefined}
      value={field.value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      error={field.error}
    />
  );
}

export function RiskLevelField({
  levels,
  value,
  onChange,
  error,
}: {
  levels: readonly string[];
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('observations.fields.riskLevel')}
      withAsterisk
      data={levels.map((r) => ({ value: r, label: `${t(`observations.riskLevels.${r}`)} — ${t(`observations.riskHints.${r}`)}` }))}
      value={value}
      onChange={onChange}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
