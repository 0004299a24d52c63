import { SUCCESS_TOAST_MS } from '@bulwark/domain';
import { notifications } from '@mantine/notifications';

export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', title, message, autoClose: SUCCESS_TOAST_MS, role: 'alert' } as Parameters<
    typeof notifications.show
  >[0]);
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: SUCCESS_TOAST_MS });
}
