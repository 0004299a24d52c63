import { useLocation, useParams } from 'react-router';
import { SiForm } from './si-form.js';
import { SiList } from './si-list.js';
import { SiReport } from './si-report.js';
import { SiScheduling } from './si-scheduling.js';
import { SiSummary } from './si-summary.js';

/** The `safetyInteractions` screen serves the list, new, edit/:id, :id/report, summary and scheduling (one screen id in the route table). */
export function SafetyInteractionsPage() {
  const { pathname } = useLocation();
  const { id } = useParams();
  const path = pathname.replace(/\/$/, '');
  if (path.endsWith('/safety-interactions/new')) return <SiForm key="new" id={null} />;
  if (path.endsWith('/safety-interactions/summary')) return <SiSummary />;
  if (path.endsWith('/safety-interactions/scheduling')) return <SiScheduling />;
  if (id && path.endsWith('/report')) return <SiReport />;
  if (id && path.includes('/safety-interactions/edit/')) return <SiForm key={id} id={id} />;
  return <SiList />;
}
