import { type ComboboxParsedItem, MultiSelect, type OptionsFilter, Select } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { PickerProject, PickerTag, PickerTask } from '../api/catalog';
import { useProjectPickerSearch } from '../api/catalog';

/** The words of the entry pickers (the timesheet's and the Detailed report's rows), in one place. */
const t = {
  projectPlaceholder: 'Project / task',
  noProject: 'No project',
  searchingProjects: 'Searching projects…',
  tags: 'Tags',
};

export interface Pickers {
  projects: PickerProject[];
  tasks: PickerTask[];
  tags: PickerTag[];
  /** False when the workspace has more projects than the pickers loaded: they search on the server. */
  complete?: boolean;
  workspaceId?: string;
}

const value = (projectId: string | null, taskId: string | null) =>
  taskId ? `t:${taskId}` : projectId ? `p:${projectId}` : null;

type Options = { group: string; items: { value: string; label: string }[] }[];
const optionsCache = new WeakMap<Pickers, Options>();

/** The picker's options, built once per pickers answer and shared by every picker on the page. */
function optionsOf(pickers: Pickers | undefined): Options {
  if (!pickers) return [];
  const cached = optionsCache.get(pickers);
  if (cached) return cached;
  const tasksOf = new Map<string, PickerTask[]>();
  for (const task of pickers.tasks) tasksOf.set(task.projectId, [...(tasksOf.get(task.projectId) ?? []), task]);
  const options = pickers.projects.map((p) => ({
    group: p.clientName ? `${p.name} · ${p.clientName}` : p.name,
    items: [
      { value: `p:${p.id}`, label: p.name },
      ...(tasksOf.get(p.id) ?? []).map((task) => ({ value: `t:${task.id}`, label: `${p.name} › ${task.name}` })),
    ],
  }));
  optionsCache.set(pickers, options);
  return options;
}

/**
 * The most options a picker renders at once: a long list is narrowed by typing (Mantine renders
 * every option it shows, and hundreds of them take seconds to open).
 */
const SHOWN_OPTIONS = 100;

/** Options whose label holds the search, at most SHOWN_OPTIONS in all (Mantine's own limit counts groups). */
const filterOptions: OptionsFilter = ({ options, search }) => {
  const needle = search.trim().toLowerCase();
  let room = SHOWN_OPTIONS;
  const shown: ComboboxParsedItem[] = [];
  for (const option of options) {
    if (room <= 0) break;
    if (!('group' in option)) continue;
    const items = option.items.filter((item) => item.label.toLowerCase().includes(needle)).slice(0, room);
    room -= items.length;
    if (items.length > 0) shown.push({ group: option.group, items });
  }
  return shown;
};

/** One picker for project or project › task. */
export function ProjectTaskSelect(props: {
  pickers: Pickers | undefined;
  projectId: string | null;
  taskId: string | null;
  onChange: (next: { projectId: string | null; taskId: string | null }) => void;
  label?: string;
  /** The label names the field for screen readers only; the placeholder says it on screen. */
  labelHidden?: boolean;
  size?: 'xs' | 'sm';
  w?: number | string;
  /** Takes focus when it appears in place of the button that showed it. */
  autoFocus?: boolean;
  /** Escape gives up on the choice (a picker shown in place of a button goes back to the button). */
  onCancel?: () => void;
  /** Locked time: shown, not changed. */
  disabled?: boolean;
}) {
  const { pickers, onChange } = props;
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  // Past the loaded projects, what is typed is also looked up on the server; found projects join `pickers`.
  const { isSearching } = useProjectPickerSearch(
    pickers?.workspaceId ?? '',
    search,
    opened && pickers?.complete === false && Boolean(pickers.workspaceId),
  );
  const data = useMemo(() => optionsOf(pickers), [pickers]);
  return (
    <Select
      aria-label={props.label ?? t.projectPlaceholder}
      label={props.labelHidden ? undefined : props.label}
      placeholder={props.labelHidden ? props.label : t.projectPlaceholder}
      data={data}
      value={value(props.projectId, props.taskId)}
      searchable
      clearable
      filter={filterOptions}
      size={props.size}
      w={props.w}
      autoFocus={props.autoFocus}
      disabled={props.disabled}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && props.onCancel) {
          e.preventDefault();
          props.onCancel();
        }
      }}
      nothingFoundMessage={isSearching ? t.searchingProjects : t.noProject}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      onChange={(v) => {
        if (!v) return onChange({ projectId: null, taskId: null });
        const id = v.slice(2);
        if (v.startsWith('p:')) return onChange({ projectId: id, taskId: null });
        const task = pickers?.tasks.find((x) => x.id === id);
        onChange({ projectId: task?.projectId ?? null, taskId: id });
      }}
    />
  );
}

export function TagSelect(props: {
  pickers: Pickers | undefined;
  value: string[];
  onChange: (ids: string[]) => void;
  /** A visible label (the timer bar has none, the entry dialog has one). */
  label?: string;
  size?: 'xs' | 'sm';
  w?: number | string;
  /** Takes focus when it appears in place of what showed the tags. */
  autoFocus?: boolean;
  /** Locked time: shown, not changed. */
  disabled?: boolean;
}) {
  const data = (props.pickers?.tags ?? []).map((tag) => ({ value: tag.id, label: tag.name }));
  if (data.length === 0) return null;
  return (
    <MultiSelect
      aria-label={t.tags}
      label={props.label}
      placeholder={props.value.length ? undefined : t.tags}
      data={data}
      value={props.value}
      onChange={props.onChange}
      searchable
      clearable
      size={props.size}
      w={props.w}
      autoFocus={props.autoFocus}
      disabled={props.disabled}
    />
  );
}

/** "Website › Design", or the project name, or "No project". */
export function rowLabel(pickers: Pickers | undefined, projectId: string | null, taskId: string | null): string {
  const project = pickers?.projects.find((p) => p.id === projectId);
  const task = pickers?.tasks.find((x) => x.id === taskId);
  if (!projectId) return t.noProject;
  return [project?.name ?? 'Project', task?.name].filter(Boolean).join(' › ');
}

export const projectColor = (pickers: Pickers | undefined, projectId: string | null): string =>
  pickers?.projects.find((p) => p.id === projectId)?.color ?? '#adb5bd';
