import { isAppHost } from '@bulwark/domain';
import { baseDomainOf } from '../../api/tenant-host.js';

/**
 * /organization_verify opens only on the app, lvh or 192 hosts (spec 000 §2). From the bare domain the
 * sign-up continues at `app.<domain>`, keeping protocol and port; the registration travels in the query.
 */
export function verifyUrl(
  location: { protocol: string; host: string },
  registrationId: string,
  email: string,
  resendAfter: string,
): string {
  const query = new URLSearchParams({ registration: registrationId, email, resend_after: resendAfter }).toString();
  const path = `/organization_verify?${query}`;
  if (isAppHost(location.host)) return path;
  const name = location.host.split(':')[0] ?? '';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return path;
  const port = location.host.includes(':') ? `:${location.host.split(':')[1]}` : '';
  return `${location.protocol}//app.${baseDomainOf(location.host)}${port}${path}`;
}
