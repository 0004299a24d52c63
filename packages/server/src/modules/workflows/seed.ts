import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { workflowReviewers, workflowSites, workflows } from './tables.js';
import { sites } from '../sites/read.js';

/**
 * Demo workflows for the transaction's organisation, built from the people and sites it already has:
 * none when it has no active user or no site (workflows need both), none when it has workflows already.
 */
export async function seedDemoWorkflows(tx: Tx): Promise<number> {
  const existing = await tx.select({ id: workflows.id }).from(workflows).limit(1);
  if (existing.length > 0) return 0;
  const people = await tx
    .select({ id: users.id, isAdmin: users.isAdmin })
    .from(users)
    .where(and(eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)))
    .orderBy(asc(users.createdAt), asc(users.id));
  const siteRows = await tx.select({ id: sites.id }).from(sites).where(eq(sites.isActive, true));
  if (people.length === 0 || siteRows.length === 0) return 0;
  const admin = people.find((u) => u.isAdmin) ?? people[0]!;
  const others = people
    .filter((u) => u.id !== admin.id)
    .slice(0, 2)
    .map((u) => u.id);
  const plans = [
    {
      title: 'Permit approval',
      module: 'permits' as const,
      type: 'sequential' as const,
      leadTimeDays: 1,
      reviewers: [...others, admin.id].slice(0, 3),
    },
    {
      title: 'Incident investigation review',
      module: 'incidents' as const,
      type: 'parallel' as const,
      leadTimeDays: 7,
      reviewers: [admin.id, ...others],
    },
    { title: 'Audit report approval', module: 'audits' as const, type: 'sequential' as const, leadTimeDays: 5, reviewers: [admin.id] },
  ];
  for (const plan of plans) {
    const [row] = await tx
      .insert(workflows)
      .values({
        title: plan.title,
        module: plan.module,
        type: plan.type,
        leadTimeDays: plan.leadTimeDays,
        formIds: [],
        escalationUserId: plan.reviewers.includes(admin.id) ? null : admin.id,
      })
      .returning({ id: workflows.id });
    await tx.insert(workflowReviewers).values(plan.reviewers.map((userId, i) => ({ workflowId: row!.id, userId, position: i + 1 })));
    await tx.insert(workflowSites).values(siteRows.map((s) => ({ workflowId: row!.id, siteId: s.id })));
  }
  return plans.length;
}
