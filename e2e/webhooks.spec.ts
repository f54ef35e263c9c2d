import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { webhookMessages } from '@sundial/core';
import { expectNoSeriousViolations } from './support/axe';
import { shot, shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 (the e2e server allows private targets): it echoes the
 * challenge Sundial sends to validate it, and records every request.
 */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body });
      let challenge: unknown;
      try {
        challenge = (JSON.parse(body) as { challenge?: unknown }).challenge;
      } catch {
        challenge = undefined;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(challenge === undefined ? { ok: true } : { challenge }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/sundial`, received, server };
}

/** Whether `header` (`t=<unix seconds>,v1=<hex>`) signs `body` with `secret`, as apps/api/src/platform/signature.ts does. */
function signatureVerifies(header: string | string[] | undefined, body: string, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return parts.v1 === expected;
}

test.describe('webhooks', () => {
  test('an owner adds a webhook for project events, it is validated, a signed delivery arrives and is logged; a bad URL is refused on its field', async ({
    page,
  }) => {
    const receiver = await startReceiver();
    try {
      await signUpOverHttp(page.request);
      const ws = await workspaceApi(page.request);
      const post = workspacePoster(page.request, ws);

      await page.goto('/homepage/webhooks');
      await expect(page.getByText('No webhooks yet')).toBeVisible();
      await shotsAtWidths(page, 'webhooks-empty');
      await expectNoSeriousViolations(page, 'webhooks (empty)');

      // Add a webhook for every project event.
      await page.getByRole('link', { name: 'Add webhook' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
      await dialog.getByRole('textbox', { name: 'Description' }).fill('The e2e receiver');
      await dialog.getByRole('checkbox', { name: 'Projects', exact: true }).check();
      await expect(dialog.getByRole('checkbox', { name: 'project.created' })).toBeChecked();
      await expectNoSeriousViolations(page, 'webhooks (add dialog)');
      await shot(page, 'webhooks-modal-1440');
      await dialog.getByRole('button', { name: 'Add webhook' }).click();

      // Validated at once; the signing secret is shown, with how to verify it.
      const added = page.getByRole('dialog', { name: 'Webhook added' });
      await expect(added.getByText('Active', { exact: true })).toBeVisible();
      await expect(added.getByText('Sundial-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>')).toBeVisible();
      const secret = await added.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(secret.length).toBeGreaterThan(16);
      await shot(page, 'webhooks-added-1440');
      await added.getByRole('button', { name: 'Done' }).click();
      await expect(added).toBeHidden();

      const row = page.getByTestId('webhook-row').filter({ hasText: receiver.url });
      await expect(row).toContainText('Active');
      await expect(row).toContainText('Projects (all)');
      await expect(row).toContainText('The e2e receiver');

      // A project is created: the receiver gets a signed project.created.
      await post('/projects', { name: 'Harbour' });
      await expect
        .poll(
          () =>
            receiver.received.some(
              (r) =>
                r.headers['sundial-event-type'] === 'project.created' &&
                signatureVerifies(r.headers['sundial-signature'], r.body, secret),
            ),
          { timeout: allow(30_000) },
        )
        .toBe(true);

      await shotsAtWidths(page, 'webhooks-list');
      await expectNoSeriousViolations(page, 'webhooks (list)');

      // The delivery is in the log, succeeded.
      await row.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
      const drawer = page.getByRole('dialog', { name: 'Deliveries' });
      const delivery = drawer.getByTestId('webhook-delivery').filter({ hasText: 'project.created' });
      await expect(async () => {
        await drawer.getByRole('button', { name: 'Refresh' }).click();
        await expect(delivery).toContainText('Succeeded', { timeout: 2_000 });
      }).toPass({ timeout: allow(20_000) });
      await expect(delivery).toContainText('HTTP 200');
      await expectNoSeriousViolations(page, 'webhooks (deliveries)');
      await shot(page, 'webhooks-deliveries-1440');
      // The same in the dark scheme (the log's badges and code blocks).
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoSeriousViolations(page, 'webhooks (deliveries, dark)');
      await shot(page, 'webhooks-deliveries-dark-1440');
      await page.emulateMedia({ colorScheme: 'light' });
      // Redelivered: a second delivery of the same event.
      await delivery.getByRole('button', { name: /^Redeliver project\.created/ }).click();
      await expect(drawer.getByTestId('webhook-delivery')).toHaveCount(2);
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();

      // A URL that is not http(s) is refused, on the URL field.
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await dialog.getByRole('textbox', { name: 'URL' }).fill('ftp://example.org/hooks');
      await dialog.getByRole('checkbox', { name: 'All events' }).check();
      await dialog.getByRole('button', { name: 'Add webhook' }).click();
      await expect(dialog.getByRole('textbox', { name: 'URL' })).toHaveAccessibleDescription(
        new RegExp(webhookMessages.urlScheme.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
      );
      await shot(page, 'webhooks-url-error-1440');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      // A new secret, confirmed, then revealed the same; and the webhook deleted.
      const menu = () => row.getByRole('button', { name: `Actions for ${receiver.url}` }).click();
      await menu();
      await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
      const rotating = page.getByRole('dialog', { name: 'Rotate signing secret' });
      await rotating.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = await rotating.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(rotated).not.toBe(secret);
      await rotating.getByRole('button', { name: 'Done' }).click();
      await menu();
      await page.getByRole('menuitem', { name: 'Reveal secret' }).click();
      const revealed = page.getByRole('dialog', { name: 'Signing secret' });
      await expect(revealed.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(rotated);
      await revealed.getByRole('button', { name: 'Done' }).click();
      await menu();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete webhook' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('No webhooks yet')).toBeVisible();
    } finally {
      receiver.server.close();
    }
  });
});
