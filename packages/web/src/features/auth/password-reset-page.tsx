import { useParams, useSearchParams } from 'react-router';
import { NewPasswordForm } from './new-password-form.js';
import { RequestResetForm } from './request-reset-form.js';

/**
 * /password-reset asks for the link; /password-reset/:token (the e-mailed link) sets the new password,
 * or the first one when the link is an invitation's (`?activate=1`).
 */
export function PasswordResetPage() {
  const { token } = useParams();
  const [search] = useSearchParams();
  return token ? <NewPasswordForm token={token} activate={search.get('activate') === '1'} /> : <RequestResetForm />;
}
