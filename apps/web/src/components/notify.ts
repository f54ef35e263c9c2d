import { notifications } from '@mantine/notifications';
import { parseApiError } from '../api/client';

/** Shows an API error's message in a red notification. */
export const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });

/** A change shown before the server answered was refused and taken back: says so, and why. */
export const notSaved = (error: unknown) =>
  notifications.show({
    color: 'red',
    title: 'Not saved: your change was undone',
    message: parseApiError(error).message,
  });

/** Shows a confirmation in a green notification. */
export const done = (message: string) => notifications.show({ color: 'green', message });
