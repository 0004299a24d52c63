import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Where notices appear. Bottom left: clear of the bell and the account menu above, and of a saved record's number and status. */
export function Toasts() {
  return <Notifications position="bottom-left" containerWidth={380} />;
}
