import { z } from 'zod';
import { compilePattern, compileSitePattern, siteOf } from './patterns.js';

/**
 * Categories of Computer time (issue 35): a tree of categories, each with rules on the
 * application, the window title or the site, and a productivity level. Rules apply when activity
 * is read, so editing a rule re-categorises history. The deepest category with a matching rule
 * wins; between equally deep ones a site rule beats a title rule, which beats an application rule
 * (a browser's site says more than the browser), and then the earlier rule wins. Nothing matched:
 * Uncategorized, neutral.
 */

export const PRODUCTIVITY_LEVELS = ['productive', 'neutral', 'unproductive'] as const;
export type Productivity = (typeof PRODUCTIVITY_LEVELS)[number];

export const CATEGORY_RULE_FIELDS = ['app', 'title', 'site'] as const;
export type CategoryRuleField = (typeof CATEGORY_RULE_FIELDS)[number];

/** The label of activity no rule matched. */
export const UNCATEGORIZED = 'Uncategorized';

export const categoryRuleInput = z.object({
  field: z.enum(CATEGORY_RULE_FIELDS, { error: 'Choose application, title or site.' }),
  pattern: z
    .string()
    .trim()
    .min(1, { error: 'Give the rule a pattern (a word the name contains; * for anything).' })
    .max(200, { error: 'A pattern is at most 200 characters.' })
    .refine((p) => p.replaceAll('*', '').length > 0, { error: 'A pattern needs more than stars.' }),
});
export type CategoryRuleInput = z.infer<typeof categoryRuleInput>;

const categoryFields = {
  name: z
    .string()
    .trim()
    .min(1, { error: 'Name the category.' })
    .max(60, { error: 'A category name is at most 60 characters.' }),
  /** The category it sits in; null: at the top. */
  parentId: z.uuid({ error: 'Choose a category to put it in, or none.' }).nullable(),
  /** Null: as its parent (at the top: neutral). */
  productivity: z.enum(PRODUCTIVITY_LEVELS, { error: 'Choose productive, neutral or unproductive.' }).nullable(),
  rules: z.array(categoryRuleInput).max(50, { error: 'A category has at most 50 rules.' }),
};

/** A new category of a workspace (owners and admins). */
export const activityCategoryBody = z.object({
  name: categoryFields.name,
  parentId: categoryFields.parentId.default(null),
  productivity: categoryFields.productivity.default(null),
  rules: categoryFields.rules.default([]),
});
export type ActivityCategoryBody = z.input<typeof activityCategoryBody>;

/** A change to a category: what is given changes. */
export const updateActivityCategoryBody = z.object(categoryFields).partial();
export type UpdateActivityCategoryBody = z.infer<typeof updateActivityCategoryBody>;

export const activityCategoryView = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  productivity: z.enum(PRODUCTIVITY_LEVELS).nullable(),
  rules: z.array(categoryRuleInput),
});
export type ActivityCategoryView = z.infer<typeof activityCategoryView>;
export const activityCategoryListView = z.object({ items: z.array(activityCategoryView) });

/** How deep categories nest (a top-level category is at depth 1). */
export const CATEGORY_MAX_DEPTH = 4;

/** A category as the categoriser reads it. */
export interface CategoryNode {
  id: string;
  parentId: string | null;
  name: string;
  /** Null: as its parent (a top-level category's null is neutral). */
  productivity: Productivity | null;
  /** In the order they are tried. */
  rules: readonly CategoryRuleInput[];
}

/** A place in a tree of categories: a view, a node or a stored row (with its parent's id). */
export interface CategoryPlace {
  id: string;
  parentId: string | null;
}

/**
 * The categories from the top down to `id` (itself last; [] for null or an id not there). A parent
 * that is missing ends the walk, as does a cycle, so a bad row never hangs a read.
 */
export function categoryPath<T extends CategoryPlace>(byId: ReadonlyMap<string, T>, id: string | null): T[] {
  const path: T[] = [];
  const seen = new Set<string>();
  for (
    let at = id === null ? undefined : byId.get(id);
    at && !seen.has(at.id);
    at = at.parentId === null ? undefined : byId.get(at.parentId)
  ) {
    seen.add(at.id);
    path.unshift(at);
  }
  return path;
}

/** The productivity a path ends with: the deepest category's own, else the nearest above it, else neutral. */
export function productivityOf(path: readonly { productivity: Productivity | null }[]): Productivity {
  return path.findLast((c) => c.productivity !== null)?.productivity ?? 'neutral';
}

/** What had the focus, as the categoriser reads it. */
export interface ActivityObservation {
  app: string | null;
  title: string | null;
  url: string | null;
}

export interface Categorised {
  /** Null: Uncategorized. */
  categoryId: string | null;
  /** The category's path from the top, e.g. ["Entertainment", "Social media"]; [] when uncategorised. */
  path: readonly string[];
  productivity: Productivity;
}

const FIELD_RANK: Record<CategoryRuleField, number> = { site: 2, title: 1, app: 0 };
const NONE: Categorised = { categoryId: null, path: [], productivity: 'neutral' };

/**
 * The categoriser of a tree: compiled once, then called per observation (memoised, since a day of
 * spans repeats a few hundred distinct windows). A category whose parent is missing, or that sits
 * in a cycle, is treated as top-level so that a bad row never hangs a read.
 */
export function createCategoriser(categories: readonly CategoryNode[]): (seen: ActivityObservation) => Categorised {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const results = new Map<string, Categorised>();
  const rules = categories.flatMap((category, categoryIndex) => {
    const path = categoryPath(byId, category.id);
    const productivity = productivityOf(path);
    const result: Categorised = { categoryId: category.id, path: path.map((c) => c.name), productivity };
    return category.rules.map((rule, ruleIndex) => ({
      field: rule.field,
      matches: rule.field === 'site' ? compileSitePattern(rule.pattern) : compilePattern(rule.pattern),
      // Deeper first, then the more telling field, then the earlier rule.
      rank: [path.length, FIELD_RANK[rule.field], -categoryIndex, -ruleIndex] as const,
      result,
    }));
  });
  const better = (a: readonly number[], b: readonly number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) > (b[i] ?? 0);
    return false;
  };
  return (seen) => {
    const key = `${seen.app ?? ''}\u0000${seen.title ?? ''}\u0000${seen.url ?? ''}`;
    const known = results.get(key);
    if (known) return known;
    const site = siteOf(seen.url);
    let best: (typeof rules)[number] | undefined;
    for (const rule of rules) {
      const value = rule.field === 'app' ? seen.app : rule.field === 'title' ? seen.title : site;
      if (value === null || !rule.matches(value)) continue;
      if (!best || better(rule.rank, best.rank)) best = rule;
    }
    const result = best?.result ?? NONE;
    if (results.size > 50_000) results.clear();
    results.set(key, result);
    return result;
  };
}

interface StarterCategory {
  name: string;
  productivity: Productivity | null;
  rules: CategoryRuleInput[];
  children?: StarterCategory[];
}

const apps = (...patterns: string[]) => patterns.map((pattern) => ({ field: 'app' as const, pattern }));
const sites = (...patterns: string[]) => patterns.map((pattern) => ({ field: 'site' as const, pattern }));

/**
 * The categories a workspace starts with (its admins change them): common applications by their
 * X11 class or executable name, and common sites by host.
 */
export const STARTER_CATEGORIES: readonly StarterCategory[] = [
  {
    name: 'Development',
    productivity: 'productive',
    rules: [
      ...apps('code', 'jetbrains', 'idea', 'pycharm', 'webstorm', 'goland', 'rider', 'android-studio', 'xcode'),
      ...apps('terminal', 'konsole', 'xterm', 'alacritty', 'kitty', 'iterm', 'vim', 'emacs', 'sublime'),
      ...sites('github.com', 'gitlab.com', 'bitbucket.org', 'stackoverflow.com', 'developer.mozilla.org'),
    ],
  },
  {
    name: 'Office',
    productivity: 'productive',
    rules: [
      ...apps('libreoffice', 'soffice', 'winword', 'excel', 'powerpnt', 'onenote', 'pages', 'numbers', 'keynote'),
      ...apps('notion', 'obsidian', 'evince', 'acrobat', 'okular'),
      ...sites('docs.google.com', 'sheets.google.com', 'slides.google.com', 'notion.so', 'office.com'),
    ],
  },
  {
    name: 'Communication',
    productivity: 'neutral',
    rules: [
      ...apps('slack', 'teams', 'zoom', 'discord', 'thunderbird', 'outlook', 'mail', 'signal', 'telegram'),
      ...sites('mail.google.com', 'outlook.live.com', 'meet.google.com', 'app.slack.com', 'teams.microsoft.com'),
    ],
  },
  {
    name: 'Design',
    productivity: 'productive',
    rules: [
      ...apps('figma', 'gimp', 'inkscape', 'krita', 'blender', 'photoshop', 'illustrator', 'sketch'),
      ...sites('figma.com', 'canva.com', 'miro.com'),
    ],
  },
  {
    name: 'Planning',
    productivity: 'productive',
    rules: sites('atlassian.net', 'trello.com', 'asana.com', 'linear.app', 'clickup.com', 'monday.com', 'todoist.com'),
  },
  {
    name: 'Browsing',
    productivity: 'neutral',
    rules: apps('firefox', 'chrome', 'chromium', 'msedge', 'safari', 'brave', 'opera', 'vivaldi'),
  },
  {
    name: 'Entertainment',
    productivity: 'unproductive',
    rules: [...apps('spotify', 'vlc', 'steam'), ...sites('youtube.com', 'netflix.com', 'twitch.tv', 'spotify.com')],
    children: [
      {
        name: 'Social media',
        productivity: null,
        rules: sites('facebook.com', 'instagram.com', 'x.com', 'twitter.com', 'reddit.com', 'tiktok.com'),
      },
      { name: 'News', productivity: null, rules: sites('news.ycombinator.com', 'bbc.co', 'cnn.com', 'nytimes.com') },
    ],
  },
];

/** The starter set as nodes, with ids from `newId` (parents before their children). */
export function starterCategories(newId: () => string): CategoryNode[] {
  const nodes: CategoryNode[] = [];
  const add = (category: StarterCategory, parentId: string | null) => {
    const id = newId();
    nodes.push({ id, parentId, name: category.name, productivity: category.productivity, rules: category.rules });
    for (const child of category.children ?? []) add(child, id);
  };
  for (const category of STARTER_CATEGORIES) add(category, null);
  return nodes;
}
