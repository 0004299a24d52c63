import { useState } from 'react';
import type { FieldErrors } from '../../ui/forms/validation.js';

/**
 * The errors of the last attempt, minus the fields changed since: a message stops showing as soon as
 * the person starts fixing its field, instead of staying red until the next save.
 */
export function useLiveErrors(errors: FieldErrors) {
  const [edited, setEdited] = useState<{ of: FieldErrors; keys: readonly string[] }>({ of: errors, keys: [] });
  const keys = edited.of === errors ? edited.keys : [];
  const shown: FieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => !keys.includes(k)));
  const touch = (key: string) => {
    if (!errors[key] || keys.includes(key)) return;
    setEdited({ of: errors, keys: [...keys, key] });
  };
  return { errors: shown, touch };
}

/** Server refusals of fields the form does not show (the status of a move, a whole body): said above the form instead of lost. */
export function otherErrors(errors: FieldErrors, shown: readonly string[]): string[] {
  return [
    ...new Set(
      Object.entries(errors)
        .filter(([k]) => !shown.includes(k))
        .map(([, v]) => v),
    ),
  ];
}
