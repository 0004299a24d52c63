import { useState } from 'react';
import type { FieldErrors } from '../../ui/forms/validation.js';

/**
 * Field errors stay under their fields only until the person changes that field: an error that no
 * longer applies, still shown in red next to a corrected value, reads as if the correction failed.
 * Every send starts afresh.
 */
export function useEditedFields() {
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  return {
    visible: (all: FieldErrors): FieldErrors => Object.fromEntries(Object.entries(all).filter(([k]) => !edited.has(k))),
    edit: (...keys: string[]) => setEdited((s) => (keys.every((k) => s.has(k)) ? s : new Set([...s, ...keys]))),
    reset: () => setEdited(new Set()),
  };
}
