import type { ClientInvoiceStatus } from '@sundial/core';

export const STATUS_COLORS: Record<ClientInvoiceStatus, string> = {
  draft: 'gray',
  issued: 'blue',
  sent: 'yellow',
  paid: 'green',
  void: 'red',
};
