import { useParams } from 'react-router';
import { NewPasswordForm } from './new-password-form.js';
import { RequestResetForm } from './request-reset-form.js';

/** /password-reset asks for the link; /password-reset/:token (the e-mailed link) sets the new password. */
export function PasswordResetPage() {
  const { token } = useParams();
  return token ? <NewPasswordForm token={token} /> : <RequestResetForm />;
}
