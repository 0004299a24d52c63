import type { Incident, IncidentFormData } from '@bulwark/domain';

/** What each investigation step is given by the steps page. */
export type StepProps = {
  incident: Incident;
  formData: IncidentFormData;
  /** Where to go once this step is saved (the next step). */
  onSaved: () => void;
};
