import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type ActivityCategoryView,
  CATEGORY_RULE_FIELDS,
  type CategoryRuleInput,
  categoryPath,
  createCategoriser,
  PRODUCTIVITY_LEVELS,
  type Productivity,
  productivityOf,
} from '@sundial/core';
import { IconCategory, IconDots, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ListState } from '../../../components/ListState';
import { done, failed } from '../../../components/notify';
import { useCategories, useCreateCategory, useDeleteCategory, useUpdateCategory } from '../categories-api';
import { ct } from '../categories-texts';
import { GroupSettingsCard } from '../components/GroupSettingsCard';
import { PatternRows } from '../components/PatternRows';
import { SettingsCard } from '../components/SettingsCard';

const LEVEL_COLOR: Record<Productivity, string> = { productive: 'teal', neutral: 'gray', unproductive: 'red' };

/** The categories in tree order, each with its depth. */
function treeOrder(items: readonly ActivityCategoryView[]): { category: ActivityCategoryView; depth: number }[] {
  const ids = new Set(items.map((c) => c.id));
  const out: { category: ActivityCategoryView; depth: number }[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const category of items.filter((c) => (c.parentId && ids.has(c.parentId) ? c.parentId : null) === parentId)) {
      if (out.some((o) => o.category.id === category.id)) continue;
      out.push({ category, depth });
      walk(category.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** How many categories sit inside `id`, at any depth. */
function insideCount(items: readonly ActivityCategoryView[], id: string): number {
  const children = items.filter((c) => c.parentId === id);
  return children.length + children.reduce((n, c) => n + insideCount(items, c.id), 0);
}

/** The rules in a line: by field, their patterns ("Applications: code, vim · Sites: github.com"). */
function rulesSummary(rules: readonly CategoryRuleInput[]): string {
  return CATEGORY_RULE_FIELDS.map((field) => {
    const patterns = rules.filter((r) => r.field === field).map((r) => r.pattern);
    return patterns.length ? `${ct.fieldsMany[field]}: ${patterns.join(', ')}` : '';
  })
    .filter(Boolean)
    .join(' · ');
}

interface Draft {
  id: string | null;
  name: string;
  parentId: string | null;
  productivity: Productivity | null;
  rules: CategoryRuleInput[];
}

function CategoryModal({
  draft,
  items,
  onClose,
}: {
  draft: Draft;
  items: readonly ActivityCategoryView[];
  onClose: () => void;
}) {
  const { workspaceId } = useWorkspace();
  const create = useCreateCategory(workspaceId);
  const update = useUpdateCategory(workspaceId);
  const [form, setForm] = useState(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saving = create.isPending || update.isPending;
  // A category cannot sit inside itself or one of its own.
  const byId = new Map(items.map((c) => [c.id, c]));
  const places = treeOrder(items).filter(({ category }) => {
    if (form.id === null) return true;
    return !categoryPath(byId, category.id).some((above) => above.id === form.id);
  });

  const submit = async () => {
    const body = { name: form.name, parentId: form.parentId, productivity: form.productivity, rules: form.rules };
    try {
      if (form.id) await update.mutateAsync({ id: form.id, body });
      else await create.mutateAsync(body);
      done(form.id ? ct.saved(form.name) : ct.created(form.name));
      onClose();
    } catch (error) {
      const parsed = parseApiError(error);
      if (parsed.fields) setErrors(parsed.fields);
      else failed(error);
    }
  };

  return (
    <Modal opened onClose={onClose} title={form.id ? ct.edit : ct.add} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={ct.name}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={errors.name}
            required
            data-autofocus
          />
          <Select
            label={ct.parent}
            data={[
              { value: '', label: ct.top },
              ...places.map(({ category, depth }) => ({
                value: category.id,
                label: `${'\u2003'.repeat(depth)}${category.name}`,
              })),
            ]}
            value={form.parentId ?? ''}
            onChange={(value) => setForm({ ...form, parentId: value ? value : null })}
            error={errors.parentId}
            allowDeselect={false}
          />
          <Select
            label={ct.productivity}
            data={[
              { value: '', label: ct.asParent },
              ...PRODUCTIVITY_LEVELS.map((level) => ({ value: level, label: ct.levels[level] })),
            ]}
            value={form.productivity ?? ''}
            onChange={(value) => setForm({ ...form, productivity: (value || null) as Productivity | null })}
            allowDeselect={false}
          />
          <Text fw={600} size="sm" mt="xs">
            {ct.rules}
          </Text>
          <Text size="xs" c="dimmed">
            {ct.patternHint}
          </Text>
          <PatternRows
            rows={form.rules}
            fields={CATEGORY_RULE_FIELDS.map((f) => ({ value: f, label: ct.fields[f] }))}
            label={(n) => `${ct.rules} ${n}`}
            removeLabel={ct.removeRule}
            errorOf={(i) => errors[`rules.${i}.pattern`]}
            onChange={(rules) => setForm((f) => ({ ...f, rules }))}
          />
          {errors.rules && (
            <Text size="sm" c="red">
              {errors.rules}
            </Text>
          )}
          <Group>
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => setForm((f) => ({ ...f, rules: [...f.rules, { field: 'app', pattern: '' }] }))}
            >
              {ct.addRule}
            </Button>
          </Group>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {ct.cancel}
            </Button>
            <Button type="submit" loading={saving}>
              {ct.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A window typed in, and what the rules make of it: the rules checked without waiting for the agent. */
function TryRules({ items }: { items: readonly ActivityCategoryView[] }) {
  const [seen, setSeen] = useState({ app: 'firefox', title: '', url: 'https://github.com/acme/app/pull/7' });
  const categorise = useMemo(() => createCategoriser(items), [items]);
  const result = categorise({ app: seen.app || null, title: seen.title || null, url: seen.url || null });
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={3} size="h5">
        {ct.tryTitle}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {ct.tryHint}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={ct.tryApp}
          value={seen.app}
          onChange={(e) => setSeen({ ...seen, app: e.currentTarget.value })}
        />
        <TextInput
          label={ct.tryWindow}
          value={seen.title}
          onChange={(e) => setSeen({ ...seen, title: e.currentTarget.value })}
        />
        <TextInput
          label={ct.tryUrl}
          value={seen.url}
          onChange={(e) => setSeen({ ...seen, url: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Group gap="xs" mt="sm" data-testid="category-result">
        <Text size="sm">{ct.result}</Text>
        <Text size="sm" fw={600}>
          {result.path.length > 0 ? result.path.join(' › ') : ct.uncategorized}
        </Text>
        <Badge color={LEVEL_COLOR[result.productivity]} variant="light">
          {ct.levels[result.productivity]}
        </Badge>
      </Group>
    </Paper>
  );
}

/**
 * COMPUTER TIME > Categories (issue 35): the workspace's tree of categories with their rules and
 * productivity, which Timeline, Activities and the later pages read activity by; owners and admins
 * change it, everyone may try a window against the rules.
 */
export function CategoriesPage() {
  const { workspaceId, can } = useWorkspace();
  const editable = can('computer_time:settings');
  const categories = useCategories(workspaceId);
  const remove = useDeleteCategory(workspaceId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<ActivityCategoryView | null>(null);
  const items = categories.data?.items ?? [];
  const byId = useMemo(() => new Map(items.map((c) => [c.id, c])), [items]);
  const blank = (parentId: string | null): Draft => ({ id: null, name: '', parentId, productivity: null, rules: [] });

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed" maw={760}>
          {ct.intro}
        </Text>
        {editable ? (
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setDraft(blank(null))}>
            {ct.add}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {ct.readOnly}
          </Text>
        )}
      </Group>
      <ListState
        query={categories}
        label={ct.loading}
        empty={{ icon: <IconCategory size={32} aria-hidden="true" />, title: ct.empty.title, hint: ct.empty.hint }}
      >
        {(list) => (
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{ct.name}</Table.Th>
                    <Table.Th w={150}>{ct.productivity}</Table.Th>
                    <Table.Th>{ct.rules}</Table.Th>
                    {editable && <Table.Th w={48} />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {treeOrder(list).map(({ category, depth }) => {
                    const level = productivityOf(categoryPath(byId, category.id));
                    return (
                      <Table.Tr key={category.id}>
                        <Table.Th scope="row" fw={depth === 0 ? 600 : 400} style={{ paddingLeft: 12 + depth * 24 }}>
                          {category.name}
                        </Table.Th>
                        <Table.Td>
                          <Badge
                            color={LEVEL_COLOR[level]}
                            variant={category.productivity ? 'light' : 'outline'}
                            style={{ overflow: 'visible' }}
                          >
                            {ct.levels[level]}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" c={category.rules.length ? undefined : 'dimmed'} lineClamp={2}>
                            {category.rules.length ? rulesSummary(category.rules) : ct.noRules}
                          </Text>
                        </Table.Td>
                        {editable && (
                          <Table.Td>
                            <Menu position="bottom-end" withinPortal>
                              <Menu.Target>
                                <ActionIcon variant="subtle" color="gray" aria-label={ct.actions(category.name)}>
                                  <IconDots size={16} aria-hidden="true" />
                                </ActionIcon>
                              </Menu.Target>
                              <Menu.Dropdown>
                                <Menu.Item
                                  onClick={() =>
                                    setDraft({
                                      id: category.id,
                                      name: category.name,
                                      parentId: category.parentId,
                                      productivity: category.productivity,
                                      rules: category.rules,
                                    })
                                  }
                                >
                                  {ct.edit}
                                </Menu.Item>
                                <Menu.Item onClick={() => setDraft(blank(category.id))}>{ct.addInside}</Menu.Item>
                                <Menu.Item color="red" onClick={() => setDeleting(category)}>
                                  {ct.delete}
                                </Menu.Item>
                              </Menu.Dropdown>
                            </Menu>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </ListState>
      {categories.data && <TryRules items={items} />}
      {editable && <SettingsCard workspaceId={workspaceId} />}
      {editable && <GroupSettingsCard workspaceId={workspaceId} />}
      {draft && <CategoryModal draft={draft} items={items} onClose={() => setDraft(null)} />}
      {deleting && (
        <Modal opened onClose={() => setDeleting(null)} title={ct.deleteTitle(deleting.name)}>
          <Text size="sm">{ct.deleteText(insideCount(items, deleting.id))}</Text>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {ct.cancel}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(deleting.id, {
                  onSuccess: () => {
                    done(ct.deleted(deleting.name));
                    setDeleting(null);
                  },
                  onError: failed,
                })
              }
            >
              {ct.delete}
            </Button>
          </Group>
        </Modal>
      )}
    </Stack>
  );
}
