// Build-time only (prerender and the dev server): reads the Markdown posts, the legal texts and
// the operator's settings from apps/web/content/. Nothing here ships to the browser.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

export const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));

export interface SiteSettings {
  name: string;
  tagline: string;
  operator: {
    name: string;
    contactEmail: string;
    postalAddress: string;
    jurisdiction: string;
    legalEffectiveDate: string;
    legalTextsReviewed: boolean;
  };
  social: { label: string; href: string }[];
  analyticsScriptUrl: string;
}

export interface Post {
  slug: string;
  title: string;
  /** ISO date, YYYY-MM-DD. */
  date: string;
  summary: string;
  html: string;
  readingMinutes: number;
}

export interface LegalText {
  title: string;
  summary: string;
  html: string;
}

const marked = new Marked({ gfm: true });

/** Splits `---` front matter of `key: value` lines (values optionally quoted) from the body. */
export function parseFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!pair?.[1]) continue;
    data[pair[1]] = (pair[2] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { data, body: source.slice(match[0].length) };
}

function required(data: Record<string, string>, key: string, file: string): string {
  const value = data[key];
  if (!value) throw new Error(`${file}: front matter needs "${key}"`);
  return value;
}

export function loadSite(): SiteSettings {
  return JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, 'site.json'), 'utf8')) as SiteSettings;
}

/** Every post in content/blog, newest first. */
export function loadPosts(): Post[] {
  const dir = path.join(CONTENT_DIR, 'blog');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => {
      const file = path.join(dir, name);
      const { data, body } = parseFrontMatter(fs.readFileSync(file, 'utf8'));
      const date = required(data, 'date', file);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${file}: date must be YYYY-MM-DD`);
      return {
        slug: name.replace(/\.md$/, ''),
        title: required(data, 'title', file),
        date,
        summary: required(data, 'summary', file),
        html: marked.parse(body, { async: false }),
        readingMinutes: Math.max(1, Math.round(body.split(/\s+/).length / 220)),
      };
    })
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

/** A legal text with the operator's details from site.json put in place of its {{placeholders}}. */
export function loadLegal(name: 'terms' | 'privacy', site: SiteSettings): LegalText {
  const file = path.join(CONTENT_DIR, 'legal', `${name}.md`);
  const values: Record<string, string> = {
    operatorName: site.operator.name,
    contactEmail: site.operator.contactEmail,
    postalAddress: site.operator.postalAddress,
    jurisdiction: site.operator.jurisdiction,
    legalEffectiveDate: site.operator.legalEffectiveDate,
  };
  const filled = fs.readFileSync(file, 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${file}: unknown placeholder ${whole}`);
    return value;
  });
  const { data, body } = parseFrontMatter(filled);
  return {
    title: required(data, 'title', file),
    summary: required(data, 'summary', file),
    html: marked.parse(body, { async: false }),
  };
}
