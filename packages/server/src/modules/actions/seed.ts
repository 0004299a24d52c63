import { actionDateIn, type ActionSource, type ActionStatus, type ControlType } from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { categories } from '../categories/read.js';
import { sites } from '../sites/read.js';
import { nextSerial } from './service.js';
import { actions } from './tables.js';

type DemoAction = {
  description: string;
  control: ControlType;
  status: ActionStatus;
  dueInDays: number;
  remarks?: string;
  category?: string;
};

/** Actions raised on their own (source "other") by the safety manager for the site supervisor, one per status. */
const DEMO_ACTIONS: DemoAction[] = [
  {
    description: 'Install a fixed guard on the paint shop mixer drive belt',
    control: 'engineering',
    status: 'open',
    dueInDays: 10,
    category: 'Repair or replace',
  },
  {
    description: 'Run a refresher toolbox talk on ladder inspection for the night shift',
    control: 'administrative',
    status: 'in_progress',
    dueInDays: 4,
    category: 'Training',
    remarks: 'Talk booked for Thursday; sign-in sheet prepared.',
  },
  {
    description: 'Replace worn anti-slip matting at the Goods In dock door',
    control: 'engineering',
    status: 'overdue',
    dueInDays: -3,
    category: 'Repair or replace',
  },
  {
    description: 'Issue cut-resistant gloves to the sheet metal cell',
    control: 'ppe',
    status: 'completed',
    dueInDays: -1,
    remarks: 'Level C gloves issued to all 12 operators; stock added to the PPE store.',
  },
  {
    description: 'Swap the solvent degreaser for a water-based cleaner in the workshop',
    control: 'substitution',
    status: 'closed',
    dueInDays: -8,
    remarks: 'Water-based cleaner in use since Monday; old drums returned to the supplier.',
  },
];

const DAY = 86_400_000;

/**
 * Demo actions for the organisation of the transaction, at its first active site, only when it has
 * none yet and the demo safety manager and supervisor exist. Writes no mail. Returns how many it added.
 */
export async function seedDemoActions(tx: Tx): Promise<number> {
  const existing = await tx.select({ id: actions.id }).from(actions).limit(1);
  if (existing.length > 0) return 0;
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, ['priya.nair@demo.test', 'tomasz.kowalski@demo.test']));
  const manager = people.find((p) => p.email === 'priya.nair@demo.test')?.id;
  const supervisor = people.find((p) => p.email === 'tomasz.kowalski@demo.test')?.id;
  const [site] = await tx
    .select({ id: sites.id, timeZone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sites.createdAt))
    .limit(1);
  if (!manager || !supervisor || !site) return 0;
  const cats = await tx
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.module, 'actions'), eq(categories.active, true)));
  const today = Date.parse(`${actionDateIn(site.timeZone)}T00:00:00Z`);
  const now = new Date();
  for (const d of DEMO_ACTIONS) {
    const serial = await nextSerial(tx);
    const done = d.status === 'completed' || d.status === 'closed';
    const [row] = await tx
      .insert(actions)
      .values({
        serial,
        sourceType: 'other',
        sourceId: null,
        siteId: site.id,
        description: d.description,
        controlType: d.control,
        categoryId: cats.find((c) => c.name === d.category)?.id ?? null,
        responsibleId: supervisor,
        dueDate: new Date(today + d.dueInDays * DAY).toISOString().slice(0, 10),
        status: d.status,
        remarks: d.remarks ?? null,
        completedAt: done ? now : null,
        completedBy: done ? supervisor : null,
        closedAt: d.status === 'closed' ? now : null,
        closedBy: d.status === 'closed' ? manager : null,
        createdBy: manager,
      })
      .returning({ id: actions.id });
    await recordAudit(tx, {
      actorUserId: manager,
      action: 'action_create',
      entity: 'Action',
      entityId: row!.id,
      changes: { serial, source_type: 'other', description: d.description },
    });
  }
  return DEMO_ACTIONS.length;
}

/**
 * One action a demo record raised (an audit's key finding, say), as the actions module stores it: the
 * next serial, its status, who did and closed it when it is done, and its history. Writes no mail.
 */
export async function seedSourceAction(
  tx: Tx,
  a: {
    sourceType: Exclude<ActionSource, 'other'>;
    sourceId: string;
    siteId: string;
    description: string;
    control: ControlType;
    responsibleId: string | null;
    createdBy: string | null;
    dueDate: string;
    status: ActionStatus;
    remarks?: string | null;
    /** When it was raised, and when a completed or closed action was done and closed (both default to now). */
    raisedAt?: Date;
    doneAt?: Date;
  },
): Promise<string> {
  const serial = await nextSerial(tx);
  const done = a.status === 'completed' || a.status === 'closed';
  const at = a.doneAt ?? new Date();
  const [row] = await tx
    .insert(actions)
    .values({
      serial,
      sourceType: a.sourceType,
      sourceId: a.sourceId,
      siteId: a.siteId,
      description: a.description,
      controlType: a.control,
      responsibleId: a.responsibleId,
      dueDate: a.dueDate,
      status: a.status,
      remarks: a.remarks ?? null,
      completedAt: done ? at : null,
      completedBy: done ? a.responsibleId : null,
      closedAt: a.status === 'closed' ? at : null,
      closedBy: a.status === 'closed' ? a.createdBy : null,
      createdBy: a.createdBy,
      createdAt: a.raisedAt ?? new Date(),
    })
    .returning({ id: actions.id });
  await recordAudit(tx, {
    actorUserId: a.createdBy,
    action: 'action_create',
    entity: 'Action',
    entityId: row!.id,
    changes: { serial, source_type: a.sourceType, source_id: a.sourceId, description: a.description },
  });
  return row!.id;
}
