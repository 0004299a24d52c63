import { useLocation, useParams } from 'react-router';
import { SiteForm } from './site-form.js';
import { SiteList } from './site-list.js';

/** The `sites` screen serves /sites, /sites/new and /sites/edit/:id (one screen id in the route table). */
export function SitesPage() {
  const { pathname } = useLocation();
  const { id } = useParams();
  if (/\/sites\/new\/?$/.test(pathname)) return <SiteForm key="new" siteId={null} />;
  if (id && /\/sites\/edit\//.test(pathname)) return <SiteForm key={id} siteId={id} />;
  return <SiteList />;
}
