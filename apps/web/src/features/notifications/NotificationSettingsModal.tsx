import { Checkbox, Loader, Modal, Table, Text } from '@mantine/core';
import { NOTIFICATION_KIND_LABELS, type NotificationSetting } from '@sundial/core';
import { failed } from '../../components/notify';
import { useNotificationSettings, useSaveNotificationSettings } from './api';

const texts = {
  title: 'Notification settings',
  intro: 'Choose what reaches you in this workspace, in the bell and by e-mail.',
  kind: 'Notification',
  inApp: 'In the app',
  email: 'By e-mail',
};

/** A member's notification settings: each kind on or off, in the bell and by e-mail; saved on each change. */
export function NotificationSettingsModal(props: { workspaceId: string; opened: boolean; onClose: () => void }) {
  const settings = useNotificationSettings(props.workspaceId, props.opened);
  const save = useSaveNotificationSettings(props.workspaceId);
  const change = (item: NotificationSetting) => save.mutate([item], { onError: failed });
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={texts.title} size="lg">
      <Text size="sm" c="dimmed" mb="sm">
        {texts.intro}
      </Text>
      {!settings.data ? (
        <Loader size="sm" />
      ) : (
        <Table aria-label={texts.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{texts.kind}</Table.Th>
              <Table.Th ta="center">{texts.inApp}</Table.Th>
              <Table.Th ta="center">{texts.email}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {settings.data.items.map((item) => {
              const label = NOTIFICATION_KIND_LABELS[item.kind];
              return (
                <Table.Tr key={item.kind}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td>
                    <Checkbox
                      mx="auto"
                      w="fit-content"
                      aria-label={`${label}: ${texts.inApp}`}
                      checked={item.inApp}
                      onChange={(e) => change({ ...item, inApp: e.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Checkbox
                      mx="auto"
                      w="fit-content"
                      aria-label={`${label}: ${texts.email}`}
                      checked={item.email}
                      onChange={(e) => change({ ...item, email: e.currentTarget.checked })}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
