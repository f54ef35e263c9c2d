// Bundles the desktop agent into one file, packages/agent/dist/sundial-agent.mjs: plain Node (^20.19)
// runs it with nothing installed beside it (zod and @sundial/core are inside). The server serves this
// file as the agent's download, with sundial-agent.json beside it (version, size, SHA-256). On
// macOS and Windows the native @miniben90/x-win is looked up beside it at run time
// (packages/agent/README.md).
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.join(root, 'packages/agent/dist/sundial-agent.mjs');

await build({
  entryPoints: [path.join(root, 'packages/agent/src/cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
  // The D-Bus client of the tray is CommonJS and requires Node's modules: an ES module has no require.
  banner: {
    js: "import { createRequire as __sundialRequire } from 'node:module'; const require = __sundialRequire(import.meta.url);",
  },
});
chmodSync(outfile, 0o755);
// Beside it, what the server says of the download (version, size, checksum) without reading it.
const bytes = readFileSync(outfile);
const { version } = JSON.parse(readFileSync(path.join(root, 'packages/agent/package.json'), 'utf8'));
const sha256 = createHash('sha256').update(bytes).digest('hex');
writeFileSync(
  outfile.replace(/\.mjs$/, '.json'),
  `${JSON.stringify({ version, bytes: bytes.length, sha256 }, null, 2)}\n`,
);
console.log(`${path.relative(process.cwd(), outfile)}: ${Math.round(bytes.length / 1024)} KiB, version ${version}`);
