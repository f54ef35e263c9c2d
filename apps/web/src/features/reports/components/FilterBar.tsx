import {
  Badge,
  Button,
  Collapse,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Switch,
  TextInput,
} from '@mantine/core';
import { DATE_PRESETS, type DatePreset, type TagMode } from '@sundial/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useClients, useProjectPicker, useTagLists } from '../../../api/catalog';
import { useMembers } from '../../../api/people';
import type { ParamPatch } from '../../../api/reports';
import { useWorkspace } from '../../../api/session';
import { useGroups } from '../../../api/team';
import { t } from '../texts';
import { activeFilterCount, FILTER_KEYS, type ReportFilters } from '../url';

/** The pickers share the row: each at least wide enough for a name, none wider than needed. */
const grow = { flex: '1 1 130px', maxWidth: 260 } as const;
/** The search field beside the chosen pills stays on their line while there is room. */
const pillsField = { inputField: { minWidth: 40 } } as const;

const triState = (value: boolean | undefined) => (value === undefined ? 'any' : value ? 'yes' : 'no');
const fromTriState = (value: string | null) => (value === 'yes' ? true : value === 'no' ? false : undefined);

/** The options of the pickers: the people, groups, clients, projects, tasks and tags the viewer sees. */
function useFilterOptions(projectIds: readonly string[] | undefined) {
  const { workspaceId, can } = useWorkspace();
  const people = useMembers(workspaceId, can('time:view_others'));
  const groups = useGroups(workspaceId);
  const clients = useClients(workspaceId, can('clients:view'));
  const picker = useProjectPicker(workspaceId);
  const tagLists = useTagLists(workspaceId, false);
  return useMemo(() => {
    const projects = picker.data?.items ?? [];
    const chosen = projectIds?.length ? projects.filter((p) => projectIds.includes(p.id)) : projects;
    return {
      users: (people.data?.items ?? []).map((p) => ({ value: p.userId, label: p.name || p.email })),
      groups: (groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
      clients: (clients.data?.items ?? []).map((c) => ({ value: c.id, label: c.name })),
      projects: projects.map((p) => ({ value: p.id, label: p.name })),
      tasks: chosen.flatMap((p) => p.tasks.map((task) => ({ value: task.id, label: `${p.name} / ${task.name}` }))),
      tags: (tagLists.data?.items ?? []).flatMap((l) => l.tags).map((tag) => ({ value: tag.id, label: tag.name })),
      seesPeople: can('time:view_others'),
    };
  }, [people.data, groups.data, clients.data, picker.data, tagLists.data, projectIds, can]);
}

/** Keeps a chosen id that the options do not list (an archived project, a link from elsewhere) choosable. */
const withChosen = (options: { value: string; label: string }[], chosen: readonly string[] | undefined) => [
  ...options,
  ...(chosen ?? []).filter((id) => !options.some((o) => o.value === id)).map((id) => ({ value: id, label: 'Unknown' })),
];

/** The description filter: applied when typing pauses, so each key press is not a step of history. */
function DescriptionInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const id = setTimeout(() => onChange(text.trim()), 500);
    return () => clearTimeout(id);
  }, [text, value, onChange]);
  return (
    <TextInput
      label={t.description}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && onChange(text.trim())}
    />
  );
}

/**
 * The filters every report shares. Each change is a new URL (a step the back button undoes); the
 * range and the most used pickers stay in view, the rest open under "More filters".
 */
export function FilterBar({
  filters,
  today,
  onChange,
}: {
  filters: ReportFilters;
  today: string;
  onChange: (patch: ParamPatch) => void;
}) {
  const options = useFilterOptions(filters.projects);
  const more =
    (filters.groups?.length ? 1 : 0) +
    (filters.clients?.length ? 1 : 0) +
    (filters.tasks?.length ? 1 : 0) +
    [filters.billable, filters.invoiced, filters.withoutProject, filters.withoutTag].filter((f) => f !== undefined)
      .length +
    (filters.description ? 1 : 0);
  const [open, setOpen] = useState(more > 0);
  const active = activeFilterCount(filters);

  const handlePreset = (value: string | null) => {
    const preset = (value ?? 'thisWeek') as DatePreset;
    if (preset === 'custom') onChange({ preset, from: filters.from ?? today, to: filters.to ?? today });
    else onChange({ preset });
  };
  const clear = () =>
    onChange(
      Object.fromEntries(
        FILTER_KEYS.filter((k) => k !== 'preset' && k !== 'from' && k !== 'to').map((k) => [k, undefined]),
      ),
    );

  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Filters">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t.dateRange}
          data={DATE_PRESETS.map((p) => ({ value: p, label: t.presets[p] }))}
          value={filters.preset}
          onChange={handlePreset}
          allowDeselect={false}
          w={140}
        />
        {filters.preset === 'custom' && (
          <>
            <TextInput
              type="date"
              label={t.from}
              value={filters.from ?? ''}
              onChange={(e) => e.currentTarget.value && onChange({ from: e.currentTarget.value })}
              w={150}
            />
            <TextInput
              type="date"
              label={t.to}
              value={filters.to ?? ''}
              onChange={(e) => e.currentTarget.value && onChange({ to: e.currentTarget.value })}
              w={150}
            />
          </>
        )}
        {options.seesPeople && (
          <MultiSelect
            label={t.users}
            data={withChosen(options.users, filters.users)}
            value={filters.users ?? []}
            onChange={(users) => onChange({ users })}
            searchable
            clearable
            style={grow}
            styles={pillsField}
          />
        )}
        <MultiSelect
          label={t.projects}
          data={withChosen(options.projects, filters.projects)}
          value={filters.projects ?? []}
          onChange={(projects) => onChange({ projects })}
          searchable
          clearable
          style={grow}
          styles={pillsField}
        />
        <MultiSelect
          label={t.tags}
          data={withChosen(options.tags, filters.tags)}
          value={filters.tags ?? []}
          onChange={(tags) => onChange({ tags })}
          searchable
          clearable
          style={grow}
          styles={pillsField}
        />
        {(filters.tags?.length ?? 0) > 0 && (
          <SegmentedControl
            aria-label={t.tagMode}
            size="sm"
            data={(['any', 'all', 'none'] as TagMode[]).map((m) => ({ value: m, label: t.tagModes[m] }))}
            value={filters.tagMode}
            onChange={(tagMode) => onChange({ tagMode })}
          />
        )}
        <Button
          variant="default"
          leftSection={<IconFilter size={16} aria-hidden="true" />}
          rightSection={
            more > 0 ? (
              <Badge size="sm" circle>
                {more}
              </Badge>
            ) : null
          }
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
        >
          {t.moreFilters}
        </Button>
        {active > 0 && (
          <Button variant="subtle" leftSection={<IconX size={16} aria-hidden="true" />} onClick={clear}>
            {t.clearFilters}
          </Button>
        )}
      </Group>
      <Collapse expanded={open}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mt="sm" spacing="sm" verticalSpacing="xs">
          <MultiSelect
            label={t.groups}
            data={withChosen(options.groups, filters.groups)}
            value={filters.groups ?? []}
            onChange={(groups) => onChange({ groups })}
            searchable
            clearable
          />
          <MultiSelect
            label={t.clients}
            data={withChosen(options.clients, filters.clients)}
            value={filters.clients ?? []}
            onChange={(clients) => onChange({ clients })}
            searchable
            clearable
          />
          <MultiSelect
            label={t.tasks}
            data={withChosen(options.tasks, filters.tasks)}
            value={filters.tasks ?? []}
            onChange={(tasks) => onChange({ tasks })}
            searchable
            clearable
          />
          <DescriptionInput value={filters.description ?? ''} onChange={(description) => onChange({ description })} />
          <Select
            label={t.billable}
            data={[
              { value: 'any', label: t.any },
              { value: 'yes', label: t.yes },
              { value: 'no', label: t.no },
            ]}
            value={triState(filters.billable)}
            onChange={(v) => onChange({ billable: fromTriState(v) })}
            allowDeselect={false}
          />
          <Select
            label={t.invoiced}
            data={[
              { value: 'any', label: t.any },
              { value: 'yes', label: t.yes },
              { value: 'no', label: t.no },
            ]}
            value={triState(filters.invoiced)}
            onChange={(v) => onChange({ invoiced: fromTriState(v) })}
            allowDeselect={false}
          />
          <Switch
            label={t.withoutProject}
            checked={filters.withoutProject === true}
            onChange={(e) => onChange({ withoutProject: e.currentTarget.checked || undefined })}
            mt="lg"
          />
          <Switch
            label={t.withoutTag}
            checked={filters.withoutTag === true}
            onChange={(e) => onChange({ withoutTag: e.currentTarget.checked || undefined })}
            mt="lg"
          />
        </SimpleGrid>
      </Collapse>
    </Paper>
  );
}
