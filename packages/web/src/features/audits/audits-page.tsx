import { auditRouteParam } from '@bulwark/domain';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/api-error.js';
import { RecordLoadFailed } from '../../ui/index.js';
import { AuditListPage } from './list-page.js';
import { AuditRecordPage } from './record-page.js';
import { RunPage } from './run-page.js';

/**
 * The `audits` screen: `/audits/{type}` is a tab of the list (a fixed slug) and `/audits/{id}` an
 * audit (a UUID; DECISIONS), which opens on its summary; `/audits/{id}/summary`, `keyfindings`,
 * `actionitems` are the audit's pages and `/audits/{id}/audit/{sectionindex}` runs it.
 */
export function AuditsPage() {
  const { t } = useTranslation();
  const { type, id, sectionindex } = useParams();
  const { pathname } = useLocation();
  if (type !== undefined) {
    const named = auditRouteParam(type);
    if (named?.kind === 'tab') return <AuditListPage key="list" tab={named.tab} />;
    if (named?.kind === 'id') return <Navigate to={`/audits/${named.id}/summary`} replace />;
    return (
      <RecordLoadFailed
        title={t('screen.audits')}
        error={new ApiError('', 404, 'not_found')}
        notFoundText={t('auditsWeb.common.notFound')}
        backTo="/audits/scheduled"
      />
    );
  }
  if (!id) return <Navigate to="/audits/scheduled" replace />;
  if (sectionindex !== undefined) return <RunPage key={id} id={id} sectionIndex={sectionindex} />;
  const page = pathname.endsWith('/keyfindings') ? 'keyfindings' : pathname.endsWith('/actionitems') ? 'actionitems' : 'summary';
  return <AuditRecordPage key={id} id={id} page={page} />;
}
