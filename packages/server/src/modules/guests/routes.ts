import { guestsApi as api } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { limit } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { createGuest, guestSettings, setGuestSignup } from './service.js';

/** Guest-account requests per address and hour. */
export const GUEST_SIGNUPS_PER_HOUR = 10;

export function guestRoutes(r: Router) {
  const { deps } = r;

  // Signed out, at the organisation's own address (an unknown or inactive one is refused first).
  r.guest(api.availability, async ({ tx }) => {
    const s = await guestSettings(tx);
    return { enabled: s.enabled, organization: s.organization };
  });

  r.guest(
    api.signUp,
    async ({ tx, tenant, body, lang, afterCommit }) => {
      if (!(await guestSettings(tx)).enabled) throw new AppError('forbidden', { messageKey: 'registration.guest.disabled' });
      const mailId = await createGuest(tx, deps, body, lang);
      if (mailId && deps.mail.smtpEnabled) afterCommit(() => deps.jobs?.send(MAIL_QUEUE, { organizationId: tenant.id, id: mailId }));
      return { email: body.email };
    },
    // Counted before validation, so malformed floods count too.
    { onRequest: (req) => limit(deps.db.app, `guest:${req.ip}`, GUEST_SIGNUPS_PER_HOUR, 3600) },
  );

  r.route(api.settings, async ({ tx }) => ({ enabled: (await guestSettings(tx)).enabled }));

  r.route(api.updateSettings, async ({ tx, principal, body }) => {
    await setGuestSignup(tx, body.enabled, principal.userId);
    return { enabled: body.enabled };
  });
}
