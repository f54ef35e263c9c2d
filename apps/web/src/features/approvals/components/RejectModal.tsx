import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { MAX_APPROVAL_COMMENT } from '@sundial/core';
import { useState } from 'react';
import { texts } from '../texts';

/** Asks why a period is rejected; the comment is required. */
export function RejectModal({
  onClose,
  onReject,
  busy,
}: {
  onClose: () => void;
  onReject: (comment: string) => void;
  busy: boolean;
}) {
  const [comment, setComment] = useState('');
  return (
    <Modal opened onClose={onClose} title={texts.rejectTitle}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (comment.trim()) onReject(comment.trim());
        }}
      >
        <Stack>
          <Textarea
            label={texts.comment}
            description={texts.rejectHint}
            data-autofocus
            required
            autosize
            minRows={3}
            maxLength={MAX_APPROVAL_COMMENT}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.cancel}
            </Button>
            <Button type="submit" color="red" loading={busy} disabled={!comment.trim()}>
              {texts.reject}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
