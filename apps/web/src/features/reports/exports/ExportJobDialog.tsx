import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useWorkspace } from '../../../api/session';
import { failed } from '../../../components/notify';
import { downloadExportJob, fileSize, useExportJob } from './api';
import { xt } from './texts';

/** A background export under way: its progress, polled, then a Download button. */
export function ExportJobDialog({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const job = useExportJob(workspaceId, jobId).data;
  const [saving, setSaving] = useState(false);

  async function handleDownload() {
    if (!job) return;
    setSaving(true);
    try {
      await downloadExportJob(workspaceId, job);
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={xt.dialogTitle} centered>
      <Stack gap="md">
        <Text size="sm">{xt.dialogLarge}</Text>
        {job?.status === 'failed' ? (
          <Alert color="red" title={xt.dialogFailed}>
            {job.error}
          </Alert>
        ) : (
          <Stack gap={4}>
            <Progress.Root>
              <Progress.Section
                value={job?.percent ?? 0}
                animated={job?.status !== 'done'}
                color={job?.status === 'done' ? 'green' : undefined}
                aria-label={xt.colProgress}
              />
            </Progress.Root>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {job ? xt.status[job.status] : xt.status.queued}
              </Text>
              <Text size="xs" c="dimmed">
                {job ? `${xt.rows(job.rowsDone, job.rowsTotal)} · ${job.percent}%` : '0%'}
              </Text>
            </Group>
          </Stack>
        )}
        {job?.status === 'done' && (
          <Text size="sm" fw={500}>
            {xt.dialogReady} {job.fileName} ({fileSize(job.sizeBytes)})
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="subtle" component={Link} to="/homepage/exports" onClick={onClose}>
            {xt.seeRecent}
          </Button>
          <Button variant="default" onClick={onClose}>
            {xt.close}
          </Button>
          <Button
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            disabled={job?.downloadable !== true}
            loading={saving}
            onClick={handleDownload}
          >
            {xt.download}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
