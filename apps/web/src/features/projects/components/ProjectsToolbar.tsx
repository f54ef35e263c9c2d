import { ActionIcon, Button, Group, Menu, Select, Stack, TextInput } from '@mantine/core';
import { IconArchive, IconDotsVertical, IconPlus, IconSearch } from '@tabler/icons-react';

export type TaskFilter = 'All Task' | 'My Task';
export type ImportKind = 'csv' | 'addons';

/**
 * Two rows at every width: search and Add Project; then the All Task / My Task filter, Archived,
 * Clients and (at the right) the import menu.
 */
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
    <Stack p="sm" gap="xs">
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Search projects and tasks"
          placeholder="Search by project or task"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 0 }}
        />
        {canManage && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={onAddProject}
            style={{ flexShrink: 0 }}
          >
            Add Project
          </Button>
        )}
      </Group>
      <Group gap="xs">
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
              <ActionIcon variant="default" size="lg" aria-label="More project actions" ml="auto">
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
    </Stack>
  );
}
