// Compiles the API to one ES module (apps/api/dist/main.mjs) so production starts plain Node,
// without a run-time TypeScript loader. npm packages stay external (loaded from node_modules);
// our own code and @sundial/core (TypeScript source) are bundled in.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [path.join(root, 'apps/api/src/main.ts')],
  outfile: path.join(root, 'apps/api/dist/main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  // The engines' Node: below 20.10 esbuild silently drops import attributes, and Node then refuses
  // a JSON import from a package (the country names of @sundial/core).
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-npm-packages',
      setup(b) {
        // A bare specifier that is not one of ours is an npm package: leave it to Node.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@sundial/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// The embedded database's worker thread is a file of its own, found beside the bundle
// (new URL('./pglite-worker.mjs', import.meta.url) in db/pglite-thread.ts).
copyFileSync(path.join(root, 'apps/api/src/db/pglite-worker.mjs'), path.join(root, 'apps/api/dist/pglite-worker.mjs'));
