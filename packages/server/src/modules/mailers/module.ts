import { and, eq, lt } from 'drizzle-orm';
import { mailOutbox } from '../../platform/db/schema.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import type { ServerModule } from '../module.js';
import { mailerRoutes } from './routes.js';

export const MAIL_SWEEP_QUEUE = 'mailers-outbox-sweep';
/** A pending message older than this was never handed to the delivery job (e.g. queued by a node without workers). */
const STALE_PENDING_MS = 10 * 60_000;

export const mailersModule: ServerModule = {
  name: 'mailers',
  routes: mailerRoutes,
  jobs: (deps) => ({
    handlers: {
      [MAIL_SWEEP_QUEUE]: async () => {
        if (!deps.mail.smtpEnabled || !deps.jobs) return;
        // The owner connection: the sweep serves every organisation.
        const stale = await deps.db.owner
          .select({ organizationId: mailOutbox.organizationId, id: mailOutbox.id })
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.status, 'pending'),
              eq(mailOutbox.attempts, 0),
              lt(mailOutbox.createdAt, new Date(Date.now() - STALE_PENDING_MS)),
            ),
          )
          .limit(500);
        for (const m of stale) await deps.jobs.send(MAIL_QUEUE, { organizationId: m.organizationId, id: m.id });
      },
    },
    schedules: [{ name: MAIL_SWEEP_QUEUE, cron: '*/10 * * * *' }],
  }),
};
