import { ActionIcon, Button, Group, Menu, Select, TextInput } from '@mantine/core';
import { IconArchive, IconDotsVertical, IconPlus, IconSearch } from '@tabler/icons-react';

export type TaskFilter = 'All Task' | 'My Task';
export type ImportKind = 'csv' | 'addons';

/** Search, Add Project, the All Task / My Task filter, Archived, Clients and the import menu. */
export function ProjectsToolbar({
  search,
  onSearch,
  filter,
  onFilter,
  archived,
  onToggleArchived,
  canManage,
  canSeeClients,
  onAddProject,
  onClients,
  onImport,
}: {
  search: string;
  onSearch: (search: string) => void;
  filter: TaskFilter;
  onFilter: (filter: TaskFilter) => void;
  archived: boolean;
  onToggleArchived: () => void;
  canManage: boolean;
  canSeeClients: boolean;
  onAddProject: () => void;
  onClients: () => void;
  onImport: (kind: ImportKind) => void;
}) {
  return (
    <Group p="sm" gap="xs" wrap="wrap">
      <TextInput
        aria-label="Search projects and tasks"
        placeholder="Search by project or task"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        style={{ flex: 1, minWidth: 180 }}
      />
      {canManage && (
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAddProject}>
          Add Project
        </Button>
      )}
      <Select
        aria-label="Filter"
        data={['All Task', 'My Task']}
        value={filter}
        onChange={(v) => v && onFilter(v as TaskFilter)}
        allowDeselect={false}
        w={120}
      />
      <Button
        variant={archived ? 'filled' : 'default'}
        color={archived ? 'gray' : undefined}
        leftSection={<IconArchive size={16} aria-hidden="true" />}
        aria-pressed={archived}
        onClick={onToggleArchived}
      >
        Archived
      </Button>
      {canSeeClients && (
        <Button variant="default" onClick={onClients}>
          Clients
        </Button>
      )}
      {canManage && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="default" size="lg" aria-label="More project actions">
              <IconDotsVertical size={16} aria-hidden="true" />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => onImport('csv')}>Import From CSV</Menu.Item>
            <Menu.Item onClick={() => onImport('addons')}>Import From add-ons</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
