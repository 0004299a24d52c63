import type { PermitForm, Worker } from '@bulwark/domain';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams } from 'react-router';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { usePermit, usePermitForm } from './permits-api.js';
import { RequestEditor } from './request-editor.js';
import { EMPTY_REQUEST, nextFullHour, stateFromPermit, splitLocal, addHours, joinLocal } from './request-model.js';

/**
 * The request flow (/permit-form-questions/new/:template_id and /permit-form-questions/edit/:permit_id):
 * loads the template's form (and the draft) and hands them to the editor once both are there.
 */
export function PermitRequestPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const editing = useLocation().pathname.includes('/edit/');
  const permit = usePermit(editing ? id : undefined);
  const templateId = editing ? permit.data?.template.id : id;
  const form = usePermitForm(templateId);

  if (editing && permit.isError)
    return (
      <RecordLoadFailed title={t('screen.permitRequest')} error={permit.error} notFoundText={t('permitsWeb.notFound')} backTo="/permits" />
    );
  if (form.isError)
    return (
      <RecordLoadFailed
        title={t('screen.permitRequest')}
        error={form.error}
        notFoundText={t('permitsWeb.request.templateGone')}
        backTo="/permit-form-questions/new"
      />
    );
  if (!form.data || (editing && !permit.data)) return <PageLoader />;

  if (editing && permit.data) {
    const p = permit.data;
    // Only a draft changes, and only by its authors: anyone else reads it on its summary.
    if (p.status !== 'draft' || !p.abilities.edit) return <Navigate to={`/permit/${p.id}/summary`} replace />;
    // A draft follows its template: the form's sections, with the draft's answers.
    const site = form.data.sites.find((s) => s.id === p.site?.id);
    return (
      <RequestEditor
        key={p.id}
        form={form.data}
        permit={p}
        initial={stateFromPermit(p, form.data.sections, site)}
        initialWorkers={p.workers}
      />
    );
  }
  return <RequestEditor key={templateId} form={form.data} permit={null} initial={freshState(form.data)} initialWorkers={[] as Worker[]} />;
}

/** A new request: the only site when there is one, starting at the next full hour for the default hours. */
function freshState(form: PermitForm) {
  const start = nextFullHour(new Date());
  const end = splitLocal(addHours(joinLocal(start.date, start.time)!, form.template.default_hours));
  return {
    ...EMPTY_REQUEST,
    site_id: form.sites.length === 1 ? form.sites[0]!.id : null,
    start_date: start.date,
    start_time: start.time,
    end_date: end.date,
    end_time: end.time,
  };
}
