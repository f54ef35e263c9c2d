import { Badge, Button, Group, Loader, Modal, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useClients } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { HistoryLink } from '../../../components/History';
import { done, failed } from '../../../components/notify';
import { type Client, useArchiveClient, useCreateClient, useDeleteClient, useUpdateClient } from '../api';
import { ConfirmDelete } from './FormParts';

function ClientForm({
  workspaceId,
  client,
  onDone,
}: {
  workspaceId: string;
  client: Client | null;
  onDone: () => void;
}) {
  const create = useCreateClient(workspaceId);
  const update = useUpdateClient(workspaceId);
  const [name, setName] = useState(client?.name ?? '');
  const [address, setAddress] = useState(client?.address ?? '');
  const [currency, setCurrency] = useState(client?.currency ?? '');
  const [note, setNote] = useState(client?.note ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const body = { name, address: address || null, currency: currency.trim() || null, note: note || null };
    const options = {
      onSuccess: () => {
        done(client ? 'Client saved.' : 'Client added.');
        onDone();
      },
      onError: (error: unknown) => {
        setErrors(parseApiError(error).fields);
        if (!Object.keys(parseApiError(error).fields).length) failed(error);
      },
    };
    if (client) update.mutate({ id: client.id, ...body }, options);
    else create.mutate(body, options);
  };

  return (
    <Stack component="form" onSubmit={submit} gap="xs">
      <Group grow align="flex-start">
        <TextInput
          label="Client name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          required
          maxLength={255}
        />
        <TextInput
          label="Currency"
          placeholder="USD"
          value={currency}
          onChange={(e) => setCurrency(e.currentTarget.value)}
          error={errors.currency}
          maxLength={3}
        />
      </Group>
      <TextInput
        label="Address"
        value={address}
        onChange={(e) => setAddress(e.currentTarget.value)}
        error={errors.address}
      />
      <Textarea
        label="Note"
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        error={errors.note}
        autosize
        minRows={1}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending || update.isPending}>
          {client ? 'Save client' : 'Add client'}
        </Button>
      </Group>
    </Stack>
  );
}

/** Clients own projects: a small list with add, edit, archive and delete. */
export function ClientsModal({
  opened,
  onClose,
  workspaceId,
  canManage,
}: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  canManage: boolean;
}) {
  const clients = useClients(workspaceId, opened);
  const archive = useArchiveClient(workspaceId);
  const remove = useDeleteClient(workspaceId);
  const [editing, setEditing] = useState<Client | 'new' | null>(null);
  const [confirm, setConfirm] = useState<Client | null>(null);

  return (
    <Modal opened={opened} onClose={onClose} title="Clients" size="xl">
      <Stack>
        {canManage && editing === null && (
          <Group justify="flex-end">
            <Button onClick={() => setEditing('new')}>Add client</Button>
          </Group>
        )}
        {editing !== null && (
          <ClientForm
            key={editing === 'new' ? 'new' : editing.id}
            workspaceId={workspaceId}
            client={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
        {clients.isPending ? (
          <Loader aria-label="Loading clients" />
        ) : clients.isError ? (
          <ErrorPanel onRetry={() => clients.refetch()} message={parseApiError(clients.error).message} />
        ) : clients.data.items.length === 0 ? (
          <Text c="dimmed">No clients yet.</Text>
        ) : (
          <Table striped aria-label="Clients">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Currency</Table.Th>
                <Table.Th>Projects</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clients.data.items.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    {c.name}{' '}
                    {c.archived && (
                      <Badge size="xs" color="gray">
                        archived
                      </Badge>
                    )}
                    {c.address && (
                      <Text size="xs" c="dimmed">
                        {c.address}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{c.currency ?? '—'}</Table.Td>
                  <Table.Td>{c.projectCount}</Table.Td>
                  <Table.Td>
                    {canManage && (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="compact-xs" variant="subtle" onClick={() => setEditing(c)}>
                          Edit
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="gray"
                          onClick={() => archive.mutate({ id: c.id, archived: !c.archived }, { onError: failed })}
                        >
                          {c.archived ? 'Restore' : 'Archive'}
                        </Button>
                        <Button size="compact-xs" variant="subtle" color="red" onClick={() => setConfirm(c)}>
                          Delete
                        </Button>
                        <HistoryLink subjectId={c.id} label={`History of client ${c.name}`} />
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title="Delete client?" centered>
        <Text size="sm">“{confirm?.name}” will be deleted. Its projects stay, without a client.</Text>
        <ConfirmDelete
          mt="md"
          deleting={remove.isPending}
          onCancel={() => setConfirm(null)}
          onDelete={() => confirm && remove.mutate(confirm.id, { onSuccess: () => setConfirm(null), onError: failed })}
        />
      </Modal>
    </Modal>
  );
}
