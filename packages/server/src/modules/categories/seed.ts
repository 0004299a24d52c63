import type { CategoryModule, CategoryType } from '@bulwark/domain';
import type { Tx } from '../../platform/db/db.js';
import { categories, rootCauseSettings, subCategories } from './tables.js';

/**
 * Demo content for a new organisation (the transaction's): typical EHS categories with sub-categories
 * and a why-analysis tree. Only for an organisation that has none yet; returns what it added.
 */
type SeedCategory = { module: CategoryModule; type: CategoryType; name: string; subs?: string[] };

const DEMO_CATEGORIES: SeedCategory[] = [
  {
    module: 'observations',
    type: 'unsafe_act',
    name: 'PPE not used',
    subs: ['Eye protection', 'Hearing protection', 'Gloves', 'Safety footwear'],
  },
  { module: 'observations', type: 'unsafe_act', name: 'Working at height', subs: ['No harness', 'Unsafe ladder use'] },
  { module: 'observations', type: 'unsafe_act', name: 'Manual handling', subs: ['Lifting', 'Carrying', 'Twisting'] },
  { module: 'observations', type: 'unsafe_act', name: 'Bypassing safety devices' },
  {
    module: 'observations',
    type: 'unsafe_condition',
    name: 'Housekeeping',
    subs: ['Slippery floor', 'Cluttered walkway', 'Waste not segregated'],
  },
  { module: 'observations', type: 'unsafe_condition', name: 'Electrical', subs: ['Exposed wiring', 'Overloaded socket'] },
  { module: 'observations', type: 'unsafe_condition', name: 'Fire safety', subs: ['Blocked exit', 'Extinguisher missing'] },
  { module: 'observations', type: 'unsafe_condition', name: 'Machine guarding' },
  { module: 'observations', type: 'near_miss', name: 'Falling object' },
  { module: 'observations', type: 'good_practice', name: 'Safety initiative' },
  { module: 'incidents', type: 'injury', name: 'Lost time injury', subs: ['Fracture', 'Laceration', 'Burn'] },
  { module: 'incidents', type: 'injury', name: 'First aid case' },
  { module: 'incidents', type: 'occupational_illness', name: 'Noise-induced hearing loss' },
  { module: 'incidents', type: 'property_damage', name: 'Vehicle collision' },
  { module: 'incidents', type: 'environmental', name: 'Chemical spill', subs: ['Oil', 'Solvent', 'Acid'] },
  { module: 'incidents', type: 'fire', name: 'Electrical fire' },
  { module: 'actions', type: 'corrective', name: 'Repair or replace' },
  { module: 'actions', type: 'preventive', name: 'Training' },
  { module: 'hira', type: 'safety', name: 'Mechanical hazards' },
  { module: 'hira', type: 'health', name: 'Chemical exposure' },
  { module: 'hira', type: 'environment', name: 'Emissions to air' },
];

export async function seedDemoCategories(tx: Tx): Promise<{ categories: number; subCategories: number }> {
  const existing = await tx.select({ id: categories.id }).from(categories).limit(1);
  if (existing.length > 0) return { categories: 0, subCategories: 0 };
  let subs = 0;
  for (const c of DEMO_CATEGORIES) {
    const [row] = await tx.insert(categories).values({ module: c.module, type: c.type, name: c.name }).returning({ id: categories.id });
    if (c.subs?.length) {
      await tx.insert(subCategories).values(c.subs.map((name) => ({ categoryId: row!.id, name })));
      subs += c.subs.length;
    }
  }
  return { categories: DEMO_CATEGORIES.length, subCategories: subs };
}

/** A why-analysis tree: type > cause group > root cause (> deeper why). */
type Branch = { name: string; below?: Branch[] };

const DEMO_ROOT_CAUSES: Branch[] = [
  {
    name: 'People',
    below: [
      {
        name: 'Training',
        below: [{ name: 'Not trained for the task' }, { name: 'Training not refreshed' }, { name: 'Induction skipped' }],
      },
      { name: 'Behaviour', below: [{ name: 'Shortcut taken to save time' }, { name: 'Rule known but ignored' }] },
      { name: 'Fitness for work', below: [{ name: 'Fatigue' }, { name: 'Under the influence' }] },
    ],
  },
  {
    name: 'Equipment',
    below: [
      { name: 'Maintenance', below: [{ name: 'Preventive maintenance overdue' }, { name: 'Defect reported but not fixed' }] },
      { name: 'Design', below: [{ name: 'No guard fitted' }, { name: 'Unsuitable for the task' }] },
      { name: 'Tools', below: [{ name: 'Damaged tool in use' }] },
    ],
  },
  {
    name: 'Environment',
    below: [
      { name: 'Workplace conditions', below: [{ name: 'Poor lighting' }, { name: 'Slippery surface' }, { name: 'Extreme temperature' }] },
      { name: 'Housekeeping', below: [{ name: 'Materials stored in walkways' }] },
    ],
  },
  {
    name: 'Procedures',
    below: [
      { name: 'Missing procedure', below: [{ name: 'Task never assessed' }] },
      {
        name: 'Inadequate procedure',
        below: [{ name: 'Hazard not identified in the risk assessment' }, { name: 'Procedure out of date' }],
      },
      { name: 'Supervision', below: [{ name: 'No supervisor on shift' }, { name: 'Permit to work not checked' }] },
    ],
  },
];

export async function seedDemoRootCauses(tx: Tx): Promise<number> {
  const existing = await tx.select({ id: rootCauseSettings.id }).from(rootCauseSettings).limit(1);
  if (existing.length > 0) return 0;
  let added = 0;
  const insert = async (branches: Branch[], parentId: string | null) => {
    for (const b of branches) {
      const [row] = await tx.insert(rootCauseSettings).values({ name: b.name, parentId }).returning({ id: rootCauseSettings.id });
      added += 1;
      if (b.below) await insert(b.below, row!.id);
    }
  };
  await insert(DEMO_ROOT_CAUSES, null);
  return added;
}
