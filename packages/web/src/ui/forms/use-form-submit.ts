import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverErrors, type FieldErrors } from './validation.js';

/**
 * The state every form shares: busy while sending, field errors under their fields, one message above
 * the form. `run` sends; a server refusal lands in the right place unless `onError` takes it first
 * (returning true).
 */
export function useFormSubmit() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  async function run(action: () => Promise<void>, onError?: (error: unknown) => boolean): Promise<void> {
    setMessage(null);
    setErrors({});
    setBusy(true);
    try {
      await action();
    } catch (error) {
      if (onError?.(error)) return;
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setErrors(shown.fields);
      setMessage(shown.message);
    } finally {
      setBusy(false);
    }
  }

  /** Shows client-side validation problems; true when there were any. */
  function refuse(found: FieldErrors | null): boolean {
    setMessage(null);
    setErrors(found ?? {});
    return found !== null && Object.keys(found).length > 0;
  }

  return { busy, errors, message, run, refuse };
}
