import { decideRoute, landingPage, type Principal } from '@bulwark/domain';

/** Only same-site paths: a `redirect` parameter must never send someone to another site. */
function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

/** Where sign-in leads: the `redirect` parameter when the guard admits it there, else the landing page. */
export function afterSignInTarget(redirect: string | null, principal: Principal, host: string): string {
  if (redirect && isLocalPath(redirect)) {
    const decision = decideRoute(redirect.split(/[?#]/)[0] ?? redirect, principal, host);
    if (decision.kind === 'allow' && decision.route.screen !== 'login') return redirect;
  }
  return landingPage(principal);
}
