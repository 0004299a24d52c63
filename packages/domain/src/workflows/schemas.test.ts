import { describe, expect, it } from 'vitest';
import { workflowCreateSchema, workflowUpdateSchema } from './schemas.js';

const u = (n: number) => `0190a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const base = {
  title: 'Hot work review',
  module: 'permits',
  type: 'sequential',
  reviewer_ids: [u(1)],
  lead_time_hours: 2,
  site_ids: [u(9)],
};

function messageOf(input: unknown, field: string) {
  const r = workflowCreateSchema.safeParse(input);
  return r.success ? null : r.error.issues.find((i) => i.path[0] === field)?.message;
}

describe('workflow schema', () => {
  it('accepts a whole workflow and fills defaults', () => {
    const r = workflowCreateSchema.parse(base);
    expect(r).toMatchObject({ escalation_user_id: null, form_ids: [] });
  });

  it('holds one to five distinct reviewers', () => {
    expect(messageOf({ ...base, reviewer_ids: [] }, 'reviewer_ids')).toBe('workflows.validation.reviewersRequired');
    expect(messageOf({ ...base, reviewer_ids: [1, 2, 3, 4, 5, 6].map(u) }, 'reviewer_ids')).toBe('workflows.validation.tooManyReviewers');
    expect(messageOf({ ...base, reviewer_ids: [u(1), u(1)] }, 'reviewer_ids')).toBe('workflows.validation.duplicateReviewer');
    expect(messageOf({ ...base, reviewer_ids: [1, 2, 3, 4, 5].map(u) }, 'reviewer_ids')).toBeNull();
  });

  it('requires title, module, type, lead time and a target', () => {
    expect(messageOf({ ...base, title: ' ' }, 'title')).toBe('workflows.validation.titleRequired');
    expect(messageOf({ ...base, module: undefined }, 'module')).toBe('validation.required');
    expect(messageOf({ ...base, module: 'library' }, 'module')).toBe('validation.invalid');
    expect(messageOf({ ...base, type: 'random' }, 'type')).toBe('validation.invalid');
    expect(messageOf({ ...base, lead_time_hours: 0 }, 'lead_time_hours')).toBe('workflows.validation.leadTime');
    expect(messageOf({ ...base, lead_time_hours: 1.5 }, 'lead_time_hours')).toBe('workflows.validation.leadTime');
    // Lead time is in hours (DECISIONS.md): up to a year of them.
    expect(messageOf({ ...base, lead_time_hours: 8760 }, 'lead_time_hours')).toBeNull();
    expect(messageOf({ ...base, lead_time_hours: 8761 }, 'lead_time_hours')).toBe('workflows.validation.leadTime');
    expect(messageOf({ ...base, lead_time_days: 2, lead_time_hours: undefined }, 'lead_time_hours')).toBe('validation.required');
    expect(messageOf({ ...base, site_ids: [] }, 'site_ids')).toBe('workflows.validation.targetRequired');
    expect(messageOf({ ...base, site_ids: [], form_ids: [u(3)] }, 'site_ids')).toBeNull();
  });

  it('keeps the escalation user out of the reviewers', () => {
    expect(messageOf({ ...base, escalation_user_id: u(1) }, 'escalation_user_id')).toBe('workflows.validation.escalationIsReviewer');
  });

  it('refuses an empty update', () => {
    expect(workflowUpdateSchema.safeParse({}).success).toBe(false);
    expect(workflowUpdateSchema.safeParse({ title: 'New' }).success).toBe(true);
  });
});
