import { can, formatPermitNumber, type FileLink } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../platform/deps.js';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerFileLinks } from '../../platform/storage/links.js';
import type { ServerModule } from '../module.js';
import { registerReviewSubject } from '../workflows/review.js';
import { describeForReview, onPermitDecided } from './decided.js';
import { permitPath } from './notify.js';
import { requestRoutes } from './request-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { PERMITS_SWEEP_QUEUE, sweepPermits } from './sweep.js';
import { templateRoutes } from './template-routes.js';
import { permitFiles, permits, permitShares, permitTemplateQuestions, permitTemplates, workProfiles } from './tables.js';

/** The app's collaborators, once it runs: the review hook mails the permit's people with them. */
let appDeps: AppDeps | null = null;

// A permit, and each of its extensions, goes through the review workflow of its template or site.
registerReviewSubject('permits', {
  subject: 'Permit',
  describe: describeForReview,
  onDecided: (tx, id, outcome, by) => onPermitDecided(tx, appDeps, id, outcome, by),
  channel: 'permits',
});

// A permit's files are for whoever reads permits (a draft's, for its authors); a question's reference
// image for whoever reads permits or their templates.
registerFileGate('permits', async (tx, p, fileId) => {
  const linked = await tx
    .select({ status: permits.status, requesterId: permits.requesterId, id: permits.id })
    .from(permitFiles)
    .innerJoin(permits, eq(permits.id, permitFiles.permitId))
    .where(eq(permitFiles.fileId, fileId));
  const images = await tx
    .select({ id: permitTemplateQuestions.id })
    .from(permitTemplateQuestions)
    .where(eq(permitTemplateQuestions.referenceImageId, fileId));
  if (linked.length === 0 && images.length === 0) return undefined;
  if (images.length > 0 && (can(p.access, 'Permit', 'read') || can(p.access, 'Permit Form Setting', 'read'))) return true;
  if (!can(p.access, 'Permit', 'read')) return false;
  for (const l of linked) {
    if (l.status !== 'draft' || l.requesterId === p.userId) return true;
    const shared = await tx.select({ id: permitShares.userId }).from(permitShares).where(eq(permitShares.permitId, l.id));
    if (shared.some((s) => s.id === p.userId)) return true;
  }
  return false;
});

registerFileLinks('permits', {
  column: permitFiles.fileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: permitFiles.fileId, id: permits.id, prefix: permits.prefix, serial: permits.serial })
        .from(permitFiles)
        .innerJoin(permits, eq(permits.id, permitFiles.permitId))
        .where(inArray(permitFiles.fileId, [...fileIds]))
    ).map((r): FileLink & { fileId: string } => ({
      fileId: r.fileId,
      kind: 'permit',
      label: formatPermitNumber(r.prefix, r.serial),
      path: permitPath(r.id),
    })),
});
registerFileLinks('permit-reference-images', {
  column: permitTemplateQuestions.referenceImageId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: permitTemplateQuestions.referenceImageId, templateId: permitTemplates.id, name: permitTemplates.name })
        .from(permitTemplateQuestions)
        .innerJoin(permitTemplates, eq(permitTemplates.id, permitTemplateQuestions.templateId))
        .where(inArray(permitTemplateQuestions.referenceImageId, [...fileIds]))
    ).map((r) => ({ fileId: r.fileId!, kind: 'permit_template' as const, label: r.name, path: `/permit-forms/${r.templateId}` })),
});
registerFileLinks('worker-photos', {
  column: workProfiles.photoFileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: workProfiles.photoFileId, name: workProfiles.name })
        .from(workProfiles)
        .where(inArray(workProfiles.photoFileId, [...fileIds]))
    ).map((r) => ({ fileId: r.fileId!, kind: 'worker_photo' as const, label: r.name, path: '/worker-profile' })),
});

/**
 * Permits to work (spec 000 §2, §7; spec 001 §2–§9; issue 16): templates with their sections and
 * questions, the four masters, worker profiles, requests through their lifecycle (PERMIT_TRANSITIONS)
 * and the review workflow, the hourly time job, the list, the PDF with its QR code, the live board and
 * its links, and the public status page.
 */
export const permitsModule: ServerModule = {
  name: 'permits',
  routes: (r, deps) => {
    appDeps = deps;
    templateRoutes(r);
    requestRoutes(r);
    settingsRoutes(r);
  },
  jobs: (deps) => {
    appDeps ??= deps;
    return {
      handlers: {
        [PERMITS_SWEEP_QUEUE]: async () => {
          await sweepPermits(deps);
        },
      },
      schedules: [{ name: PERMITS_SWEEP_QUEUE, cron: '25 * * * *' }],
    };
  },
};
