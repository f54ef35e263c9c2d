import { notifications } from '@mantine/notifications';
import { parseApiError } from '../../../api/client';

/** The red notification with the server's message. */
export const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });
/** The green notification that confirms a change. */
export const done = (message: string) => notifications.show({ color: 'green', message });
