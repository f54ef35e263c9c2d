import { describe, expect, it } from 'vitest';
import {
  type CategoryNode,
  categoryPath,
  createCategoriser,
  productivityOf,
  STARTER_CATEGORIES,
  starterCategories,
} from './categories.js';

let n = 0;
const id = () => `c${++n}`;
const seen = (app: string | null, title: string | null = null, url: string | null = null) => ({ app, title, url });

describe('createCategoriser', () => {
  const tree: CategoryNode[] = [
    {
      id: 'ent',
      parentId: null,
      name: 'Entertainment',
      productivity: 'unproductive',
      rules: [{ field: 'site', pattern: 'youtube.com' }],
    },
    {
      id: 'edu',
      parentId: 'ent',
      name: 'Talks',
      productivity: 'productive',
      rules: [{ field: 'title', pattern: 'conference' }],
    },
    { id: 'web', parentId: null, name: 'Browsing', productivity: null, rules: [{ field: 'app', pattern: 'firefox' }] },
    {
      id: 'dev',
      parentId: null,
      name: 'Development',
      productivity: 'productive',
      rules: [{ field: 'title', pattern: '*.ts - ' }],
    },
  ];
  const categorise = createCategoriser(tree);

  it('gives the deepest category with a matching rule, with its path and productivity', () => {
    expect(categorise(seen('firefox', 'Keynote: conference 2026', 'https://www.youtube.com/watch?v=1'))).toEqual({
      categoryId: 'edu',
      path: ['Entertainment', 'Talks'],
      productivity: 'productive',
    });
    expect(categorise(seen('firefox', 'Cats', 'https://youtube.com/watch?v=2'))).toMatchObject({
      categoryId: 'ent',
      productivity: 'unproductive',
    });
  });

  it('prefers a site rule to an application rule at the same depth, and says neutral when no level is set', () => {
    expect(categorise(seen('firefox', 'Cats', 'https://youtube.com/'))).toMatchObject({ categoryId: 'ent' });
    expect(categorise(seen('firefox', 'Docs', 'https://example.com/'))).toEqual({
      categoryId: 'web',
      path: ['Browsing'],
      productivity: 'neutral',
    });
  });

  it('leaves unmatched activity uncategorised (neutral), away time included', () => {
    expect(categorise(seen('xterm', 'bash'))).toEqual({ categoryId: null, path: [], productivity: 'neutral' });
    expect(categorise(seen(null))).toEqual({ categoryId: null, path: [], productivity: 'neutral' });
  });

  it('survives a category whose parent is gone or that sits in a cycle', () => {
    const odd = createCategoriser([
      { id: 'a', parentId: 'b', name: 'A', productivity: null, rules: [{ field: 'app', pattern: 'alpha' }] },
      { id: 'b', parentId: 'a', name: 'B', productivity: 'productive', rules: [] },
      { id: 'o', parentId: 'gone', name: 'Orphan', productivity: null, rules: [{ field: 'app', pattern: 'omega' }] },
    ]);
    expect(odd(seen('alpha'))).toEqual({ categoryId: 'a', path: ['B', 'A'], productivity: 'productive' });
    expect(odd(seen('omega'))).toEqual({ categoryId: 'o', path: ['Orphan'], productivity: 'neutral' });
  });
});

describe('the starter categories', () => {
  const categorise = createCategoriser(starterCategories(id));

  it('sort common applications and sites', () => {
    expect(categorise(seen('code', 'app.ts - sundial'))).toMatchObject({
      path: ['Development'],
      productivity: 'productive',
    });
    expect(categorise(seen('firefox', 'PR', 'https://github.com/acme/app/pull/1'))).toMatchObject({
      path: ['Development'],
    });
    expect(categorise(seen('chromium', 'Home', 'https://www.netflix.com/browse'))).toMatchObject({
      path: ['Entertainment'],
      productivity: 'unproductive',
    });
    expect(categorise(seen('firefox', 'Home / X', 'https://x.com/home'))).toMatchObject({
      path: ['Entertainment', 'Social media'],
      productivity: 'unproductive',
    });
    expect(categorise(seen('firefox', 'Weather', 'https://weather.example.org/'))).toMatchObject({
      path: ['Browsing'],
      productivity: 'neutral',
    });
    expect(categorise(seen('Slack'))).toMatchObject({ path: ['Communication'] });
  });

  it('gives every category a distinct name and at least one rule', () => {
    const nodes = starterCategories(id);
    expect(new Set(nodes.map((c) => c.name)).size).toBe(nodes.length);
    expect(nodes.every((c) => c.rules.length > 0)).toBe(true);
    expect(nodes.length).toBeGreaterThan(STARTER_CATEGORIES.length);
  });
});

describe('categoryPath', () => {
  const place = (id: string, parentId: string | null, productivity: 'productive' | 'unproductive' | null = null) => ({
    id,
    parentId,
    productivity,
  });
  const tree = new Map(
    [
      place('work', null, 'productive'),
      place('dev', 'work'),
      place('ide', 'dev'),
      place('fun', null, 'unproductive'),
      place('orphan', 'gone'),
      place('a', 'b'),
      place('b', 'a'),
    ].map((c) => [c.id, c]),
  );
  const ids = (id: string | null) => categoryPath(tree, id).map((c) => c.id);

  it('walks from the top down to the category itself', () => {
    expect(ids('ide')).toEqual(['work', 'dev', 'ide']);
    expect(ids('fun')).toEqual(['fun']);
    expect(ids(null)).toEqual([]);
    expect(ids('nowhere')).toEqual([]);
  });

  it('ends at a missing parent or a cycle instead of hanging', () => {
    expect(ids('orphan')).toEqual(['orphan']);
    expect(ids('a')).toEqual(['b', 'a']);
    expect(ids('b')).toEqual(['a', 'b']);
  });

  it('takes the productivity of the deepest category that has one', () => {
    expect(productivityOf(categoryPath(tree, 'ide'))).toBe('productive');
    expect(productivityOf(categoryPath(tree, 'fun'))).toBe('unproductive');
    expect(productivityOf(categoryPath(tree, 'orphan'))).toBe('neutral');
    expect(productivityOf([])).toBe('neutral');
  });
});
