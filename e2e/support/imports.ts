import type { Locator } from '@playwright/test';

/** Chooses `content` as the import dialog's file, named `name` (a CSV unless the name says otherwise). */
export async function chooseImportFile(dialog: Locator, name: string, content: string): Promise<void> {
  await dialog.locator('input[type=file]').setInputFiles({
    name,
    mimeType: name.endsWith('.json') ? 'application/json' : 'text/csv',
    buffer: Buffer.from(content),
  });
}
