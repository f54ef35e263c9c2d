import type { GroupView } from '@sundial/core';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from './client';

/** The workspace's members and groups as Team, Roles and the report filters read them, with the team's keys. */

const _base = (ws: string) => `/workspaces/${ws}`;

/** Select options naming each group with its path, e.g. "Sales / EMEA", sorted by that path. */
export function groupOptions(groups: GroupView[], exclude: Set<string> = new Set()) {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const path = (g: GroupView): string => {
    const names = [g.name];
    const seen = new Set([g.id]);
    for (let p = g.parentId ? byId.get(g.parentId) : undefined; p && !seen.has(p.id); ) {
      names.unshift(p.name);
      seen.add(p.id);
      p = p.parentId ? byId.get(p.parentId) : undefined;
    }
    return names.join(' / ');
  };
  return groups
    .filter((g) => !exclude.has(g.id))
    .map((g) => ({ value: g.id, label: path(g) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export const teamKeys = {
  all: (ws: string) => ['team', ws] as const,
  members: (ws: string) => ['team', ws, 'members'] as const,
  groups: (ws: string) => ['team', ws, 'groups'] as const,
  invites: (ws: string) => ['team', ws, 'invites'] as const,
  settings: (ws: string) => ['team', ws, 'settings'] as const,
};

/** People per request on the Users screen; more come with "Show more people". */
export const MEMBERS_PAGE_SIZE = 100;

/**
 * The workspace's people, a page at a time, found on the server by `search` (name, e-mail,
 * external id). The next page starts after the people already loaded.
 */
export function useMembers(ws: string, search: string) {
  const query = useInfiniteQuery({
    queryKey: [...teamKeys.members(ws), search.trim()],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(MEMBERS_PAGE_SIZE), offset: String(pageParam) });
      if (search.trim()) params.set('search', search.trim());
      return api('GET /workspaces/:workspaceId/members', { params: { workspaceId: ws }, query: params });
    },
    initialPageParam: 0,
    getNextPageParam: (last) =>
      last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined,
    // While a new search loads, keep showing the people found so far (filtered in the browser).
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[query.data.pages.length - 1]?.total ?? 0;
  return { ...query, items, total };
}

export const useGroups = (ws: string) =>
  useQuery({
    queryKey: teamKeys.groups(ws),
    queryFn: async () => (await api('GET /workspaces/:workspaceId/groups', { params: { workspaceId: ws } })).items,
  });
