import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useAuthCommands } from './auth-api.js';
import { SessionTransition } from './session-transition.js';
import { useRunOnce } from './use-run-once.js';

/** /logout: end the session on the server (this device, or everywhere), forget it here, back to sign-in. */
export function LogoutPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  const { signOutOnServer } = useAuthCommands();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  useRunOnce(() => {
    void (async () => {
      if (session.isSignedIn()) {
        // Whatever the server answers (it may already consider the account inactive), the session ends here.
        await signOutOnServer(params.get('everywhere') === '1').catch(() => undefined);
      }
      session.clear();
      notifySuccess(t('auth.signedOut'));
      void navigate('/login', { replace: true });
    })();
  });

  return <SessionTransition label={t('auth.signingOut')} />;
}
