import type { PermitQuestion } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import type { Upload } from '../../platform/http/upload.js';
import { checkUpload } from '../../platform/storage/storage.js';
import { touchTemplate } from './sections.js';
import { loadTemplate, questionOf } from './template-read.js';
import { permitTemplateQuestions } from './tables.js';

/** The question (locked), or "not found"; before a byte of the upload is read. */
export async function loadQuestion(tx: Tx, id: string) {
  const [q] = await tx.select().from(permitTemplateQuestions).where(eq(permitTemplateQuestions.id, id)).for('update');
  if (!q) throw new AppError('not_found');
  return q;
}

/**
 * PATCH /api/section_question_reference_image/{id}: an image (checked by content: JPEG, PNG, GIF or
 * WebP) shown beside the question, e.g. the right harness. It replaces the question's last one.
 */
export async function setReferenceImage(
  tx: Tx,
  deps: Pick<AppDeps, 'storage'>,
  actor: Principal,
  questionId: string,
  upload: Upload,
): Promise<{ question: PermitQuestion; purge: (() => Promise<void>) | null }> {
  const q = await loadQuestion(tx, questionId);
  await loadTemplate(tx, q.templateId, true);
  const mime = await checkUpload('attachment', upload.file);
  if (!mime.startsWith('image/')) throw new AppError('file_type_refused', { fields: { file: 'storage.wrongType' } });
  const file = await deps.storage.store(tx, {
    purpose: 'attachment',
    fileName: upload.fileName,
    bytes: upload.file,
    uploadedBy: actor.userId,
  });
  await tx.update(permitTemplateQuestions).set({ referenceImageId: file.id }).where(eq(permitTemplateQuestions.id, q.id));
  const old = q.referenceImageId ? await deps.storage.remove(tx, q.referenceImageId) : null;
  await touchTemplate(tx, actor, q.templateId, 'permit_reference_image_set', { question_id: q.id, file_id: file.id });
  return {
    question: questionOf({ ...q, referenceImageId: file.id }, { id: file.id, file_name: file.file_name }),
    purge: old?.purge ?? null,
  };
}
