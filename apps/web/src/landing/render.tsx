// Build-time rendering of the public site to static HTML (prerender and the dev server).
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { CALCULATORS } from './calculators';
import { Head, ORIGIN_TOKEN, type PageMeta } from './components/Head';
import { Layout } from './components/Layout';
import { loadLegal, loadPosts, loadSite, type Post, type SiteSettings } from './content';
import { HERO } from './copy';
import { CalculatorPage, CalculatorsIndexPage, DemoPage } from './pages/FormPages';
import { HomePage } from './pages/HomePage';
import {
  BlogIndexPage,
  BlogPostPage,
  IntegrationsPage,
  LegalPage,
  NotFoundPage,
  PricingPage,
} from './pages/SimplePages';

export interface PublicPage {
  path: string;
  meta: PageMeta;
  body: ReactElement;
}

export const NOT_FOUND_PATH = '/404';

/** Every public page, rendered from the content on disk now. */
export function publicPages(): PublicPage[] {
  const site = loadSite();
  const posts = loadPosts();
  const legal = (name: 'terms' | 'privacy'): PublicPage => {
    const text = loadLegal(name, site);
    return {
      path: `/${name}`,
      meta: { title: text.title, description: text.summary },
      body: <LegalPage text={text} reviewed={site.operator.legalTextsReviewed} />,
    };
  };
  return [
    {
      path: '/',
      meta: {
        title: `Sundial: ${HERO.title.toLowerCase()}`,
        description:
          'Open-source time tracking for teams: a one-click timer, weekly timesheets, projects and teams, self-hosted or online. 14-day free trial, no credit card.',
      },
      body: <HomePage posts={posts} />,
    },
    {
      path: '/pricing',
      meta: {
        title: 'Pricing',
        description: 'Sundial plans: Free, Basic, Pro and Enterprise, per license, monthly or annually with 10% off.',
      },
      body: <PricingPage />,
    },
    {
      path: '/integrations',
      meta: {
        title: 'Integrations',
        description:
          'Sundial’s REST API and OpenAPI description, CSV import, importers for Toggl Track, Clockify and Harvest, SMTP e-mail and PostgreSQL.',
      },
      body: <IntegrationsPage />,
    },
    {
      path: '/blog',
      meta: { title: 'Blog', description: 'Notes on time tracking, self-hosting and how Sundial is built.' },
      body: <BlogIndexPage posts={posts} />,
    },
    ...posts.map((post) => blogPost(post, posts)),
    {
      path: '/demo',
      meta: {
        title: 'Book a demo',
        description: 'Ask for a demo of Sundial for your team: timesheets, projects, team management and self-hosting.',
      },
      body: <DemoPage />,
    },
    {
      path: '/calculators',
      meta: { title: 'Calculators', description: 'Free hourly-rate and overtime calculators.' },
      body: <CalculatorsIndexPage />,
    },
    ...CALCULATORS.map((calculator) => ({
      path: `/calculators/${calculator.slug}`,
      meta: { title: calculator.title, description: calculator.description },
      body: <CalculatorPage calculator={calculator} />,
    })),
    legal('terms'),
    legal('privacy'),
    {
      path: NOT_FOUND_PATH,
      meta: { title: 'Page not found', description: 'This address does not lead to a page.' },
      body: <NotFoundPage />,
    },
  ];
}

function blogPost(post: Post, posts: Post[]): PublicPage {
  return {
    path: `/blog/${post.slug}`,
    meta: { title: post.title, description: post.summary, ogType: 'article' },
    body: <BlogPostPage post={post} others={posts.filter((other) => other.slug !== post.slug)} />,
  };
}

/**
 * One page as a full HTML document: the template is landing.html as Vite left it (with the
 * page script and styles), and `<!--site-head-->` / `<!--site-body-->` mark where the page goes.
 */
export function renderDocument(page: PublicPage, template: string, site: SiteSettings = loadSite()): string {
  const head = renderToStaticMarkup(
    <Head path={page.path} meta={page.meta} analyticsScriptUrl={site.analyticsScriptUrl} />,
  );
  const body = renderToStaticMarkup(
    <Layout path={page.path} site={site} year={new Date().getFullYear()}>
      {page.body}
    </Layout>,
  );
  return template.replace('<!--site-head-->', head).replace('<!--site-body-->', body);
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** sitemap.xml, robots.txt and the blog's RSS feed, with the origin left as a token. */
export function siteFiles(pages: PublicPage[], posts: Post[] = loadPosts()): Record<string, string> {
  const listed = pages.filter((page) => page.path !== NOT_FOUND_PATH);
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...listed.map((page) => `  <url><loc>${ORIGIN_TOKEN}${page.path}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
  const robots = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /homepage/',
    '',
    `Sitemap: ${ORIGIN_TOKEN}/sitemap.xml`,
    '',
  ].join('\n');
  const rss = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0"><channel>',
    '<title>Sundial blog</title>',
    `<link>${ORIGIN_TOKEN}/blog</link>`,
    '<description>Notes on time tracking, self-hosting and how Sundial is built.</description>',
    ...posts.map(
      (post) =>
        `<item><title>${escapeXml(post.title)}</title><link>${ORIGIN_TOKEN}/blog/${post.slug}</link>` +
        `<guid>${ORIGIN_TOKEN}/blog/${post.slug}</guid><pubDate>${new Date(`${post.date}T00:00:00Z`).toUTCString()}</pubDate>` +
        `<description>${escapeXml(post.summary)}</description></item>`,
    ),
    '</channel></rss>',
    '',
  ].join('\n');
  return { '/sitemap.xml': sitemap, '/robots.txt': robots, '/blog/rss.xml': rss };
}
