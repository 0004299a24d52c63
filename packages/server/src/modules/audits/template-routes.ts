import { auditSchedulesApi as schedulesApi, auditTemplatesApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { createSchedule, deleteSchedule, listSchedules, scheduleView, updateSchedule } from './schedules.js';
import { addFormType, removeSection, saveSection, updateFormType } from './template-sections.js';
import { templateSections } from './template-form.js';
import { cloneTemplate, createTemplate, deleteTemplate, listTemplates, loadTemplate, templateDetail, updateTemplate } from './templates.js';

/** Templates (audit forms), their sections and questions, and the schedules. */
export function templateRoutes(r: Router) {
  const { deps } = r;
  const sections = async (tx: Parameters<typeof templateSections>[0], id: string) => {
    await loadTemplate(tx, id);
    return { sections: await templateSections(tx, id) };
  };
  const sectionOf = async (tx: Parameters<typeof templateSections>[0], templateId: string, sectionId: string) => ({
    section: (await templateSections(tx, templateId)).find((s) => s.id === sectionId)!,
  });

  r.route(api.list, ({ tx, query }) => listTemplates(tx, query));
  r.route(api.create, async ({ tx, principal, body }) => ({
    template: await templateDetail(tx, await createTemplate(tx, principal, body)),
  }));
  r.route(api.get, async ({ tx, params }) => ({ template: await templateDetail(tx, params.id) }));
  r.route(api.update, async ({ tx, principal, params, body }) => {
    await updateTemplate(tx, principal, params.id, body);
    return { template: await templateDetail(tx, params.id) };
  });
  r.route(api.remove, async ({ tx, principal, params }) => {
    await deleteTemplate(tx, principal, params.id);
    return { ok: true as const };
  });
  r.route(api.clone, async ({ tx, principal, params, body }) => ({
    template: await templateDetail(tx, await cloneTemplate(tx, principal, params.id, body.name)),
  }));

  r.route(api.formTypes, ({ tx, params }) => sections(tx, params.id));
  r.route(api.sections, ({ tx, params }) => sections(tx, params.id));
  r.route(api.addFormType, async ({ tx, principal, params, body }) =>
    sectionOf(tx, params.id, await addFormType(tx, principal, params.id, body)),
  );
  r.route(api.updateFormType, async ({ tx, principal, params, body }) => {
    await updateFormType(tx, principal, params.id, params.form_type_id, body);
    return sections(tx, params.id);
  });
  r.route(api.removeFormType, async ({ tx, principal, params }) => {
    await removeSection(tx, principal, params.id, params.form_type_id);
    return sections(tx, params.id);
  });
  r.route(api.addSection, async ({ tx, principal, params, body }) =>
    sectionOf(tx, params.id, await saveSection(tx, principal, params.id, null, body)),
  );
  r.route(api.saveSection, async ({ tx, principal, params, body }) =>
    sectionOf(tx, params.id, await saveSection(tx, principal, params.id, params.section_id, body)),
  );
  r.route(api.removeSection, async ({ tx, principal, params }) => {
    await removeSection(tx, principal, params.id, params.section_id);
    return sections(tx, params.id);
  });

  r.route(schedulesApi.list, ({ tx, query }) => listSchedules(tx, query));
  r.route(schedulesApi.get, async ({ tx, params }) => ({ schedule: await scheduleView(tx, params.id) }));
  r.route(schedulesApi.create, async ({ tx, principal, body, afterCommit }) => {
    const made = await createSchedule(tx, deps, principal, body);
    afterCommit(made.afterCommit);
    return { schedule: await scheduleView(tx, made.id) };
  });
  r.route(schedulesApi.update, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await updateSchedule(tx, deps, principal, params.id, body));
    return { schedule: await scheduleView(tx, params.id) };
  });
  r.route(schedulesApi.remove, async ({ tx, principal, params, afterCommit }) => {
    afterCommit(await deleteSchedule(tx, deps, principal, params.id));
    return { ok: true as const };
  });
}
