import { permitTemplatesApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { sitesWithAreas } from './form-data.js';
import { activeMasters } from './masters.js';
import { loadQuestion, setReferenceImage } from './reference-image.js';
import { saveSection } from './section-save.js';
import { addFormType, removeSection, updateFormType } from './sections.js';
import { loadTemplate, sectionsOf, templateDetail, templateSummaries } from './template-read.js';
import { createTemplate, deleteTemplate, updateTemplate } from './templates.js';

/** The template calls of spec 000 §7 (`/api/permits` are the templates) and the request form. */
export function templateRoutes(r: Router) {
  const { deps } = r;

  r.route(api.list, async ({ tx, query }) => ({ templates: await templateSummaries(tx, query) }));
  r.route(api.create, async ({ tx, principal, body, lang }) => ({ template: await createTemplate(tx, principal, body, lang) }));
  r.route(api.get, async ({ tx, params }) => ({ template: await templateDetail(tx, params.id) }));
  r.route(api.update, async ({ tx, principal, params, body }) => ({ template: await updateTemplate(tx, principal, params.id, body) }));
  r.route(api.remove, async ({ tx, principal, params }) => {
    await deleteTemplate(tx, principal, params.id);
    return { ok: true as const };
  });

  // Sections ("form types"): the list alone; `sections`: a section with its questions.
  r.route(api.formTypes, async ({ tx, params }) => {
    await loadTemplate(tx, params.id);
    return { sections: await sectionsOf(tx, params.id) };
  });
  r.route(api.addFormType, async ({ tx, principal, params, body }) => ({ section: await addFormType(tx, principal, params.id, body) }));
  r.route(api.updateFormType, async ({ tx, principal, params, body }) => ({
    sections: await updateFormType(tx, principal, params.id, params.form_type_id, body),
  }));
  r.route(api.removeFormType, async ({ tx, principal, params }) => ({
    sections: await removeSection(tx, principal, params.id, params.form_type_id),
  }));
  r.route(api.sections, async ({ tx, params }) => {
    await loadTemplate(tx, params.id);
    return { sections: await sectionsOf(tx, params.id) };
  });
  r.route(api.addSection, async ({ tx, principal, params, body, afterCommit }) => {
    const saved = await saveSection(tx, deps, principal, params.id, null, body);
    for (const p of saved.purge) afterCommit(p);
    return { section: saved.section };
  });
  r.route(api.saveSection, async ({ tx, principal, params, body, afterCommit }) => {
    const saved = await saveSection(tx, deps, principal, params.permit_id, params.section_id, body);
    for (const p of saved.purge) afterCommit(p);
    return { section: saved.section };
  });
  r.route(api.removeSection, async ({ tx, principal, params }) => ({
    sections: await removeSection(tx, principal, params.permit_id, params.section_id),
  }));
  r.route(
    api.referenceImage,
    async ({ tx, principal, params, upload, afterCommit }) => {
      const { question, purge } = await setReferenceImage(tx, deps, principal, params.id, upload);
      if (purge) afterCommit(purge);
      return { question };
    },
    // The question must be this organisation's before a byte of the image is read.
    { beforeUpload: async ({ tx, params }) => void (await loadQuestion(tx, params.id)) },
  );

  r.route(api.form, async ({ tx, params }) => {
    const t = await loadTemplate(tx, params.id);
    return {
      template: {
        id: t.id,
        name: t.name,
        description: t.description,
        prefix: t.prefix,
        default_hours: t.defaultHours,
        extension_hours: t.extensionHours,
        extension_declaration: t.extensionDeclaration,
        enabled: t.enabled,
      },
      sections: await sectionsOf(tx, t.id, true),
      sites: await sitesWithAreas(tx),
      masters: await activeMasters(tx),
    };
  });
}
