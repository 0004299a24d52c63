import type { ObservationFormData } from '@bulwark/domain';
import { useTranslation } from 'react-i18next';
import { ActionItemsField } from '../actions/action-items-field.js';
import type { ActionRow } from './form-model.js';

type Props = {
  rows: ActionRow[];
  onChange: (rows: ActionRow[]) => void;
  onAdd: () => void;
  /** form-model's canRemoveRow: whether the rows may shrink (not below one while actions are required and none exist yet). */
  canRemove: boolean;
  formData: Pick<ObservationFormData, 'control_types' | 'users' | 'action_categories'>;
  /** Errors keyed by the server's paths: `<prefix>.<index>.<field>`. */
  errors: Record<string, string>;
  prefix: 'actions' | 'add_actions';
  /** The earliest due date the site's calendar allows (today there). */
  minDate?: string;
  /** Told the error paths a change makes stale (`<prefix>.<index>.<field>`). */
  onEdit?: (...paths: string[]) => void;
};

/** The corrective actions raised with the observation: one card per action, added and removed freely. */
export function ActionRows({ rows, onChange, onAdd, canRemove, formData, errors, prefix, minDate, onEdit }: Props) {
  const { t } = useTranslation();
  const people = formData.users.map((u) => ({
    value: u.id,
    label: u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email,
  }));
  const categories = formData.action_categories.map((c) => ({ value: c.id, label: c.name }));
  return (
    <ActionItemsField
      rows={rows}
      onChange={onChange}
      onAdd={onAdd}
      onEdit={onEdit}
      errors={errors}
      errorPrefix={prefix}
      // canRemove is false only for the last row while one is required, which is what atLeastOne says of it.
      atLeastOne={!canRemove}
      controlTypes={formData.control_types}
      people={{ options: people }}
      categories={categories}
      columns={2}
      minDate={minDate}
      texts={{
        row: (n) => t('observationsWeb.actions.row', { n }),
        removeLabel: (n) => t('observationsWeb.actions.removeRow', { n }),
        remove: t('observations.form.removeAction'),
        add: t('observations.form.addAction'),
      }}
    />
  );
}
