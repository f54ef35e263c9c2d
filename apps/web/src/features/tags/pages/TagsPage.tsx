import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDotsVertical, IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { HistoryMenuItem } from '../../../components/History';
import { done, failed } from '../../../components/notify';
import {
  type Tag,
  type TagList,
  useArchiveTag,
  useArchiveTagList,
  useCreateTag,
  useCreateTagList,
  useDeleteTag,
  useDeleteTagList,
  useMergeTag,
  useRenameTag,
  useRenameTagList,
  useSaveTagSettings,
  useTagDetail,
  useTagLists,
  useTagSettings,
} from '../api';
import { TagRuleBadges, TagRulesModal } from '../components/TagRules';

/** An inline name input with Save and Cancel; Enter saves, Esc cancels. */
function NameBar({
  label,
  initial = '',
  saveLabel = 'Save',
  pending,
  onSave,
  onCancel,
}: {
  label: string;
  initial?: string;
  saveLabel?: string;
  pending: boolean;
  onSave: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await onSave(name);
    } catch (e) {
      const parsed = parseApiError(e);
      setError(parsed.fields.name ?? parsed.message);
    }
  };
  return (
    <Group component="form" onSubmit={submit} gap="xs" align="flex-start">
      <TextInput
        aria-label={label}
        placeholder={label}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        error={error}
        maxLength={255}
        autoFocus
        style={{ flex: 1 }}
      />
      <Button type="submit" loading={pending}>
        {saveLabel}
      </Button>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
    </Group>
  );
}

const entries = (n: number) => `${n} time ${n === 1 ? 'entry' : 'entries'}`;

/** Asks before a tag is deleted, telling how many time entries lose it. */
function DeleteTagDialog({
  tag,
  workspaceId,
  opened,
  onClose,
}: {
  tag: Tag;
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const detail = useTagDetail(workspaceId, tag.id, opened);
  const remove = useDeleteTag(workspaceId);
  const count = detail.data?.entryCount;
  return (
    <Modal opened={opened} onClose={onClose} title="Delete tag?" centered>
      {detail.isPending ? (
        <Loader size="sm" aria-label="Counting time entries" />
      ) : (
        <Text size="sm">
          {count
            ? `“${tag.name}” will be removed from ${entries(count)} and deleted. `
            : `No time entry has “${tag.name}”; it will be deleted. `}
          This cannot be undone{count ? ': archive it instead to keep it on those entries.' : '.'}
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red"
          loading={remove.isPending}
          disabled={detail.isPending}
          onClick={() =>
            remove.mutate(tag.id, {
              onSuccess: () => {
                onClose();
                done('Tag deleted.');
              },
              onError: failed,
            })
          }
        >
          Delete
        </Button>
      </Group>
    </Modal>
  );
}

function TagChip({
  tag,
  list,
  allTags,
  workspaceId,
  canManage,
}: {
  tag: Tag;
  list: TagList;
  allTags: Tag[];
  workspaceId: string;
  canManage: boolean;
}) {
  const rename = useRenameTag(workspaceId);
  const archive = useArchiveTag(workspaceId);
  const merge = useMergeTag(workspaceId);
  const [renaming, setRenaming] = useState(false);
  const [merging, setMerging] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [into, setInto] = useState<string | null>(null);

  if (renaming) {
    return (
      <NameBar
        label="Tag name"
        initial={tag.name}
        pending={rename.isPending}
        onSave={async (name) => {
          await rename.mutateAsync({ id: tag.id, name });
          setRenaming(false);
        }}
        onCancel={() => setRenaming(false)}
      />
    );
  }
  return (
    <Group gap={2} wrap="nowrap" data-testid="tag">
      <Badge variant={tag.archived ? 'outline' : 'light'} color={tag.archived ? 'gray' : 'blue'} size="lg" tt="none">
        {tag.name}
        {tag.archived ? ' (archived)' : ''}
      </Badge>
      {canManage && (
        <Menu withinPortal position="bottom-start">
          <Menu.Target>
            <ActionIcon variant="subtle" size="sm" aria-label={`Actions for tag ${tag.name}`}>
              <IconDotsVertical size={14} aria-hidden="true" />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setRenaming(true)}>Rename</Menu.Item>
            <Menu.Item onClick={() => setMerging(true)}>Merge into…</Menu.Item>
            <HistoryMenuItem subjectId={tag.id} />
            <Menu.Item onClick={() => archive.mutate({ id: tag.id, archived: !tag.archived }, { onError: failed })}>
              {tag.archived ? 'Restore' : 'Archive'}
            </Menu.Item>
            <Menu.Item color="red" c="var(--mantine-color-red-text)" onClick={() => setDeleting(true)}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <DeleteTagDialog tag={tag} workspaceId={workspaceId} opened={deleting} onClose={() => setDeleting(false)} />
      <Modal opened={merging} onClose={() => setMerging(false)} title={`Merge “${tag.name}”`} centered>
        <Stack>
          <Text size="sm">
            Every time entry tagged “{tag.name}” gets the tag you choose, and “{tag.name}” is deleted.
          </Text>
          <Select
            label="Merge into"
            data={allTags
              .filter((t) => t.id !== tag.id)
              .map((t) => ({ value: t.id, label: t.tagListId === list.id ? t.name : `${t.name}` }))}
            value={into}
            onChange={setInto}
            searchable
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setMerging(false)}>
              Cancel
            </Button>
            <Button
              disabled={!into}
              loading={merge.isPending}
              onClick={() =>
                into &&
                merge.mutate(
                  { id: tag.id, intoTagId: into },
                  {
                    onSuccess: () => {
                      setMerging(false);
                      done('Tags merged.');
                    },
                    onError: failed,
                  },
                )
              }
            >
              Merge
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function TagListCard({
  list,
  allTags,
  workspaceId,
  canManage,
}: {
  list: TagList;
  allTags: Tag[];
  workspaceId: string;
  canManage: boolean;
}) {
  const rename = useRenameTagList(workspaceId);
  const archive = useArchiveTagList(workspaceId);
  const remove = useDeleteTagList(workspaceId);
  const createTag = useCreateTag(workspaceId);
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [rules, setRules] = useState(false);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={`Tag list ${list.name}`}>
      <Group justify="space-between" mb="sm">
        {renaming ? (
          <NameBar
            label="Tag list name"
            initial={list.name}
            pending={rename.isPending}
            onSave={async (name) => {
              await rename.mutateAsync({ id: list.id, name });
              setRenaming(false);
            }}
            onCancel={() => setRenaming(false)}
          />
        ) : (
          <Title order={3} size="h5">
            {list.name}{' '}
            {list.archived && (
              <Badge size="xs" color="gray">
                archived
              </Badge>
            )}{' '}
            <TagRuleBadges list={list} />
          </Title>
        )}
        {canManage && !renaming && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden="true" />}
              onClick={() => setAdding(true)}
            >
              Add tag
            </Button>
            <Menu withinPortal position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={`Actions for tag list ${list.name}`}>
                  <IconDotsVertical size={16} aria-hidden="true" />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setRenaming(true)}>Rename</Menu.Item>
                <Menu.Item onClick={() => setRules(true)}>Rules…</Menu.Item>
                <HistoryMenuItem subjectId={list.id} />
                <Menu.Item
                  onClick={() => archive.mutate({ id: list.id, archived: !list.archived }, { onError: failed })}
                >
                  {list.archived ? 'Restore' : 'Archive'}
                </Menu.Item>
                <Menu.Item color="red" c="var(--mantine-color-red-text)" onClick={() => setConfirm(true)}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        )}
      </Group>
      {adding && (
        <Stack mb="sm">
          <NameBar
            label="Tag name"
            pending={createTag.isPending}
            onSave={async (name) => {
              await createTag.mutateAsync({ listId: list.id, name });
              setAdding(false);
            }}
            onCancel={() => setAdding(false)}
          />
        </Stack>
      )}
      <Group gap="xs">
        {list.tags.length === 0 ? (
          <Text size="sm" c="dimmed">
            No tags in this list yet.
          </Text>
        ) : (
          list.tags.map((tag) => (
            <TagChip
              key={tag.id}
              tag={tag}
              list={list}
              allTags={allTags}
              workspaceId={workspaceId}
              canManage={canManage}
            />
          ))
        )}
      </Group>
      {rules && <TagRulesModal list={list} workspaceId={workspaceId} opened onClose={() => setRules(false)} />}
      <Modal opened={confirm} onClose={() => setConfirm(false)} title="Delete tag list?" centered>
        <Text size="sm">
          “{list.name}” and its {list.tags.length} tags will be deleted, and removed from the time entries that have
          them. This cannot be undone.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirm(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => remove.mutate(list.id, { onSuccess: () => setConfirm(false), onError: failed })}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}

function SettingsForm({
  workspaceId,
  tagsRequired,
  canManage,
}: {
  workspaceId: string;
  tagsRequired: boolean;
  canManage: boolean;
}) {
  const save = useSaveTagSettings(workspaceId);
  const [required, setRequired] = useState(tagsRequired);
  return (
    <Group justify="space-between">
      <Checkbox
        label="Time entries must have at least one tag"
        checked={required}
        onChange={(e) => setRequired(e.currentTarget.checked)}
        disabled={!canManage}
      />
      {canManage && (
        <Button
          loading={save.isPending}
          onClick={() => save.mutate(required, { onSuccess: () => done('Settings saved.'), onError: failed })}
        >
          Save Setting
        </Button>
      )}
    </Group>
  );
}

export function TagsPage() {
  const { workspaceId, can } = useWorkspace();
  const canManage = can('tags:manage');
  const [showArchived, setShowArchived] = useState(false);
  const [adding, setAdding] = useState(false);
  const lists = useTagLists(workspaceId, showArchived);
  const settings = useTagSettings(workspaceId);
  const createList = useCreateTagList(workspaceId);

  const allTags = (lists.data?.items ?? []).flatMap((l) => l.tags);

  return (
    <Stack maw={900}>
      <Text c="dimmed">
        Tags describe what kind of work a time entry is, across projects. Group them in tag lists (for example “Activity
        type” holding Meeting, Development and Design), then pick them on your time entries.
      </Text>
      <Group justify="space-between">
        {canManage ? (
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setAdding(true)}>
            Add tag list
          </Button>
        ) : (
          <span />
        )}
        <Switch
          label="Show archived"
          checked={showArchived}
          onChange={(e) => setShowArchived(e.currentTarget.checked)}
        />
      </Group>
      {adding && (
        <NameBar
          label="Tag list name"
          pending={createList.isPending}
          onSave={async (name) => {
            await createList.mutateAsync(name);
            setAdding(false);
            done('Tag list added.');
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {lists.isPending ? (
        <Loader aria-label="Loading tags" />
      ) : lists.isError ? (
        <ErrorPanel message={parseApiError(lists.error).message} onRetry={() => lists.refetch()} />
      ) : lists.data.items.length === 0 ? (
        <Text c="dimmed">No tag lists yet.</Text>
      ) : (
        lists.data.items.map((list) => (
          <TagListCard key={list.id} list={list} allTags={allTags} workspaceId={workspaceId} canManage={canManage} />
        ))
      )}
      <Paper withBorder p="md" radius="md">
        <Title order={3} size="h5" mb="sm">
          Settings
        </Title>
        {settings.data && (
          <SettingsForm
            workspaceId={workspaceId}
            tagsRequired={settings.data.tagsRequired}
            canManage={can('time:settings')}
          />
        )}
      </Paper>
    </Stack>
  );
}

export default TagsPage;
