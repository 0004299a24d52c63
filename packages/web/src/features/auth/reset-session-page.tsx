import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServices } from '../../app/services.js';
import { useAuthCommands } from './auth-api.js';
import { SessionTransition } from './session-transition.js';
import { useRunOnce } from './use-run-once.js';

/** /reset-session: drop the session on the server and here, then sign in afresh. */
export function ResetSessionPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  const { resetCurrentSession } = useAuthCommands();
  const navigate = useNavigate();

  useRunOnce(() => {
    void (async () => {
      const refresh = session.tokens()?.refresh;
      if (refresh) await resetCurrentSession(refresh).catch(() => undefined);
      session.clear();
      void navigate('/login', { replace: true });
    })();
  });

  return <SessionTransition label={t('auth.resetSessionTitle')} />;
}
