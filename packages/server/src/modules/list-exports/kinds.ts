import { ACTION_LIST_KINDS, type ActionListKind, type Language, type MasterKind } from '@bulwark/domain';
import type { Tx } from '../../platform/db/db.js';
import { ACTION_LIST_LINKS, actionExport, actionQueryOf } from '../actions/export.js';
import { incidentExport, incidentQueryOf } from '../incidents/export.js';
import { observationExport, observationQueryOf } from '../observations/export.js';
import { permitExport, permitQueryOf } from '../permits/export.js';
import { isMasterKind, MASTER_LINKS, masterExport, masterQueryOf, workerExport, workerQueryOf } from '../permits/settings-export.js';
import { siExport, siQueryOf } from '../safety-interactions/export.js';
import { siteExport, siteQueryOf } from '../sites/export.js';
import type { ListExportSource } from './source.js';

/**
 * The lists whose exports may run as a job, by the name a job keeps (list_exports.list): the job opens
 * the list's export again from the filters the request kept, and the notification links to the list.
 */
export type ListName =
  | 'observations'
  | `actions:${ActionListKind}`
  | 'incidents'
  | 'permits'
  | 'safety_interactions'
  | 'sites'
  | 'workers'
  | `permit-masters:${MasterKind}`;

/** The web lists of the lists named alone. */
const LINKS: Record<string, string> = {
  observations: '/observations',
  incidents: '/incidents',
  permits: '/permits',
  safety_interactions: '/safety-interactions',
  sites: '/sites',
  workers: '/worker-profile',
};

const isActionKind = (kind: string): kind is ActionListKind => Object.hasOwn(ACTION_LIST_KINDS, kind);

function actionKind(list: string): ActionListKind | null {
  const kind = list.startsWith('actions:') ? list.slice('actions:'.length) : '';
  return isActionKind(kind) ? kind : null;
}

function masterKind(list: string): MasterKind | null {
  const kind = list.startsWith('permit-masters:') ? list.slice('permit-masters:'.length) : '';
  return isMasterKind(kind) ? kind : null;
}

/** `requestedBy`: whose list it is (a list that depends on its reader, as permits' drafts do, reads as them). */
export function openListExport(
  tx: Tx,
  list: string,
  query: Record<string, unknown>,
  lang: Language,
  requestedBy: string | null,
): ListExportSource {
  if (list === 'observations') return observationExport(tx, observationQueryOf(query), lang);
  if (list === 'incidents') return incidentExport(tx, incidentQueryOf(query), lang);
  if (list === 'safety_interactions') return siExport(tx, siQueryOf(query), lang);
  if (list === 'sites') return siteExport(tx, siteQueryOf(query), lang);
  if (list === 'workers') return workerExport(tx, workerQueryOf(query), lang);
  const master = masterKind(list);
  if (master) return masterExport(tx, master, masterQueryOf(query), lang);
  if (list === 'permits') {
    // Its requester's drafts and shares: an export whose requester is gone has no reader left.
    if (!requestedBy) throw new Error('permits export without its requester');
    return permitExport(tx, { userId: requestedBy }, permitQueryOf(query), lang);
  }
  const kind = actionKind(list);
  if (kind) return actionExport(tx, kind, actionQueryOf(query), lang);
  throw new Error(`unknown list export "${list}"`);
}

/** The web list a finished export links to; `?export=<id>` there shows its download. */
export function listLink(list: string): string {
  if (Object.hasOwn(LINKS, list)) return LINKS[list]!;
  const kind = actionKind(list);
  if (kind) return ACTION_LIST_LINKS[kind];
  const master = masterKind(list);
  return master ? MASTER_LINKS[master] : '/notification';
}
