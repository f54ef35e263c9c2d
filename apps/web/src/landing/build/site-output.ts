// Writes the prerendered public site into dist/site/ after `vite build` (see scripts/prerender.ts).
import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_DIR, loadPosts } from '../content';
import { publicPages, renderDocument, siteFiles } from '../render';

/** Puts the stylesheet Vite emitted for landing.html inline: one request less before first paint. */
export function inlineStyles(html: string, dist: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (_tag, href: string) => {
    const css = fs.readFileSync(path.join(dist, href), 'utf8');
    return `<style>${css}</style>`;
  });
}

/** The file a public path is written to under dist/site/ ("/" is index.html, "/blog/x" is blog/x.html). */
export const siteFileFor = (urlPath: string) => (urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}.html`);

export function writeSite(dist: string): string[] {
  const templateFile = path.join(dist, 'landing.html');
  const template = inlineStyles(fs.readFileSync(templateFile, 'utf8'), dist);
  const out = path.join(dist, 'site');
  fs.rmSync(out, { recursive: true, force: true });
  const write = (relative: string, text: string) => {
    const file = path.join(out, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  const pages = publicPages();
  for (const page of pages) write(siteFileFor(page.path), renderDocument(page, template));
  for (const [urlPath, text] of Object.entries(siteFiles(pages, loadPosts()))) write(urlPath.slice(1), text);
  fs.copyFileSync(path.join(CONTENT_DIR, 'og-image.png'), path.join(dist, 'og-image.png'));
  fs.rmSync(templateFile);
  return pages.map((page) => page.path);
}
