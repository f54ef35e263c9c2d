import { Checkbox } from '@mantine/core';
import { useState } from 'react';
import { done, failed } from '../../../components/notify';
import { useSaveTeamSettings } from '../api';
import { texts } from '../texts';

/** Saved per workspace at once; shows the new state while the server confirms it. */
export function HideDisabledSetting({
  workspaceId,
  saved,
  editable,
}: {
  workspaceId: string;
  saved: boolean;
  editable: boolean;
}) {
  const save = useSaveTeamSettings(workspaceId);
  const [checked, setChecked] = useState(saved);
  return (
    <Checkbox
      label={texts.hideDisabled}
      checked={checked}
      disabled={!editable}
      onChange={(e) => {
        const next = e.currentTarget.checked;
        setChecked(next);
        save.mutate(
          { hideDisabledUsers: next },
          {
            onSuccess: () => done('Setting saved.'),
            onError: (error) => {
              setChecked(!next);
              failed(error);
            },
          },
        );
      }}
    />
  );
}
