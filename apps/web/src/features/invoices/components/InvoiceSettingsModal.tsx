import { Button, Group, Modal, NumberInput, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import type { ClientInvoiceSettingsView } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { useInvoiceSettings, useSaveInvoiceSettings } from '../api';
import { iv } from '../texts';

function SettingsForm({ settings, onClose }: { settings: ClientInvoiceSettingsView; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const save = useSaveInvoiceSettings(workspaceId);
  const [values, setValues] = useState(settings);
  const fields = save.error ? parseApiError(save.error).fields : {};
  return (
    <Stack>
      <Group grow>
        <TextInput
          label={iv.numberPattern}
          description="{YYYY}, {YY}, {MM} and a counter such as {0000}"
          value={values.numberPattern}
          error={fields.numberPattern}
          onChange={(e) => setValues({ ...values, numberPattern: e.currentTarget.value })}
        />
        <NumberInput
          label={iv.nextNumber}
          min={1}
          value={values.nextNumber}
          error={fields.nextNumber}
          onChange={(n) => setValues({ ...values, nextNumber: Number(n) || 1 })}
        />
      </Group>
      <Textarea
        label={iv.address}
        autosize
        minRows={3}
        value={values.address}
        onChange={(e) => setValues({ ...values, address: e.currentTarget.value })}
      />
      <Textarea
        label={iv.paymentDetails}
        autosize
        minRows={2}
        value={values.paymentDetails}
        onChange={(e) => setValues({ ...values, paymentDetails: e.currentTarget.value })}
      />
      <Switch
        label={iv.roundAsReports}
        description={iv.roundAsReportsHint}
        checked={values.roundAsReports}
        onChange={(e) => setValues({ ...values, roundAsReports: e.currentTarget.checked })}
      />
      <Group justify="flex-end">
        <Button
          loading={save.isPending}
          onClick={() =>
            save.mutate(values, {
              onSuccess: () => {
                done(iv.saved);
                onClose();
              },
            })
          }
        >
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/** Numbering, the address and payment details printed on every invoice. */
export function InvoiceSettingsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const settings = useInvoiceSettings(workspaceId);
  return (
    <Modal opened={opened} onClose={onClose} title={iv.settings} size="lg">
      {settings.data && <SettingsForm settings={settings.data} onClose={onClose} />}
    </Modal>
  );
}
