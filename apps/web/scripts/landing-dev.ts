// `vite` dev server: renders the public pages on request, like the production server sends
// their prerendered HTML, so / shows the landing page in development too.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

type RenderModule = typeof import('../src/landing/render');
type HeadModule = typeof import('../src/landing/components/Head');

export function landingDevServer(): Plugin {
  return {
    name: 'sundial-landing-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = req.url ?? '/';
        const urlPath = url.split('?')[0] ?? '/';
        const isAsset = /\.[a-z0-9]+$/i.test(urlPath) && !/\.(xml|txt)$/.test(urlPath);
        if (req.method !== 'GET' || isAsset || urlPath.startsWith('/@')) return next();
        try {
          const render = (await server.ssrLoadModule('/src/landing/render.tsx')) as RenderModule;
          const { ORIGIN_TOKEN } = (await server.ssrLoadModule('/src/landing/components/Head.tsx')) as HeadModule;
          const origin = `http://${req.headers.host ?? 'localhost'}`;
          const pages = render.publicPages();
          const page = pages.find((candidate) => candidate.path === urlPath);
          const file = render.siteFiles(pages)[urlPath];
          if (!page && file === undefined) return next();
          let body = file ?? '';
          if (page) {
            const template = fs.readFileSync(path.join(server.config.root, 'landing.html'), 'utf8');
            body = render.renderDocument(page, await server.transformIndexHtml(url, template));
          }
          const type = page ? 'text/html' : urlPath.endsWith('.txt') ? 'text/plain' : 'application/xml';
          res.setHeader('content-type', `${type}; charset=utf-8`);
          res.end(body.replaceAll(ORIGIN_TOKEN, origin));
        } catch (error) {
          if (error instanceof Error) server.ssrFixStacktrace(error);
          next(error);
        }
      });
    },
  };
}
