import { ACTION_LIST_KINDS, type ActionListKind, type Language } from '@bulwark/domain';
import type { Tx } from '../../platform/db/db.js';
import { ACTION_LIST_LINKS, actionExport, actionQueryOf } from '../actions/export.js';
import { observationExport, observationQueryOf } from '../observations/export.js';
import type { ListExportSource } from './source.js';

/**
 * The lists whose exports may run as a job, by the name a job keeps (list_exports.list): the job opens
 * the list's export again from the filters the request kept, and the notification links to the list.
 */
export type ListName = 'observations' | `actions:${ActionListKind}`;

const isActionKind = (kind: string): kind is ActionListKind => Object.hasOwn(ACTION_LIST_KINDS, kind);

function actionKind(list: string): ActionListKind | null {
  const kind = list.startsWith('actions:') ? list.slice('actions:'.length) : '';
  return isActionKind(kind) ? kind : null;
}

export function openListExport(tx: Tx, list: string, query: Record<string, unknown>, lang: Language): ListExportSource {
  if (list === 'observations') return observationExport(tx, observationQueryOf(query), lang);
  const kind = actionKind(list);
  if (kind) return actionExport(tx, kind, actionQueryOf(query), lang);
  throw new Error(`unknown list export "${list}"`);
}

/** The web list a finished export links to; `?export=<id>` there shows its download. */
export function listLink(list: string): string {
  if (list === 'observations') return '/observations';
  const kind = actionKind(list);
  return kind ? ACTION_LIST_LINKS[kind] : '/notification';
}
