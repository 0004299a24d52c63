import {
  actionPath,
  actionsApi,
  can,
  homeApi,
  observationsApi,
  parseRecordSerial,
  safetyInteractionsApi,
  startableWork,
  type RecordSerial,
  type StartableWork,
} from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';

/**
 * Every call of the home, the no-permission page and the command palette. The home reads what the
 * actions and observations modules hold; it is refetched whenever it is shown again, so what was just
 * done elsewhere is there.
 */
export const HOME_KEY = ['home'] as const;

export function useHome() {
  const api = useApi(homeApi);
  return useQuery({ queryKey: HOME_KEY, queryFn: () => api.get(), refetchOnMount: 'always' });
}

/** Whom to ask for access (the organisation's administrators). */
export function useAdministrators() {
  const api = useApi(homeApi);
  return useQuery({ queryKey: [...HOME_KEY, 'contacts'], queryFn: () => api.contacts(), staleTime: 5 * 60_000 });
}

/** The "start" buttons this person may use: the rights the server sent, through the domain's one rule. */
export function useStartableWork(): StartableWork & { readsActions: boolean } {
  const profile = useProfile();
  if (!profile) return { observation: false, incident: false, action: false, safetyInteraction: false, readsActions: false };
  const access = principalFromProfile(profile).access;
  return { ...startableWork(access), readsActions: can(access, 'Action', 'read') };
}

/**
 * Finds the record a typed serial names, through the list the person may read (the lists' own search
 * matches serials). Answers its path, or null when it is not there for this person.
 */
export function useRecordFinder(): (typed: string) => Promise<{ serial: RecordSerial; path: string | null } | null> {
  const observations = useApi(observationsApi);
  const interactions = useApi(safetyInteractionsApi);
  const actions = useApi(actionsApi);
  const profile = useProfile();
  const quiet = { notify: false };
  return async (typed) => {
    const serial = parseRecordSerial(typed);
    if (!serial) return null;
    const access = profile ? principalFromProfile(profile).access : null;
    try {
      if (serial.kind === 'observation') {
        if (!access || !can(access, 'Observation', 'read')) return { serial, path: null };
        const page = await observations.list({ query: { search: serial.label } }, quiet);
        const hit = page.observations.find((o) => o.serial_label === serial.label);
        return { serial, path: hit ? `/observations/summary/${hit.id}` : null };
      }
      if (serial.kind === 'safety_interaction') {
        const page = await interactions.list({ query: { search: serial.label } }, quiet);
        const hit = page.safety_interactions.find((r) => r.serial === serial.serial);
        return { serial, path: hit ? `/safety-interactions/edit/${hit.id}` : null };
      }
      if (!access || !can(access, 'Action', 'read')) return { serial, path: null };
      const page = await actions.listAll({ query: { search: serial.label } }, quiet);
      const hit = page.actions.find((a) => a.serial === serial.serial);
      return { serial, path: hit ? actionPath(hit.source_type, hit.id) : null };
    } catch {
      return { serial, path: null };
    }
  };
}
