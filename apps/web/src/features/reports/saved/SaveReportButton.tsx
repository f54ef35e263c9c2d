import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { isReportKind, type SavedReportVisibility } from '@sundial/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { useSaveReport } from './api';
import { ReportNameInput } from './fields';
import { st } from './texts';

/** "Save" above a report: keeps the page (its slug) and its query string under a name. */
export function SaveReportButton() {
  const { pathname } = useLocation();
  const kind = pathname.replace(/\/$/, '').split('/').pop() ?? '';
  const [opened, setOpened] = useState(false);
  if (!isReportKind(kind)) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
      >
        {st.save}
      </Button>
      {opened && <SaveReportModal kind={kind} onClose={() => setOpened(false)} />}
    </>
  );
}

function SaveReportModal({ kind, onClose }: { kind: string; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [visibility, setVisibility] = useState<SavedReportVisibility>('private');
  const save = useSaveReport(workspaceId);
  const error = save.error ? parseApiError(save.error) : null;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { name, kind, query: params.toString(), visibility },
      {
        onSuccess: (saved) => {
          // Notifications render outside the router: the message names where to find it, with no link.
          done(st.saved(saved.name));
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={st.saveTitle} centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {st.saveHint}
          </Text>
          <ReportNameInput value={name} onChange={setName} error={error} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="save-visibility-label">
              {st.visibility}
            </Text>
            <SegmentedControl
              aria-labelledby="save-visibility-label"
              value={visibility}
              onChange={(v) => setVisibility(v as SavedReportVisibility)}
              data={(['private', 'workspace'] as const).map((v) => ({ value: v, label: st.visibilities[v] }))}
            />
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {st.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {st.saveButton}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
