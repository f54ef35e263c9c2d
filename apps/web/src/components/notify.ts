import { notifications } from '@mantine/notifications';
import { parseApiError } from '../api/client';

/** Shows an API error's message in a red notification. */
export const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });

/** Shows a confirmation in a green notification. */
export const done = (message: string) => notifications.show({ color: 'green', message });
