// Writes a .br and a .gz beside every compressible file of the build's assets folder, so the server
// sends them as they are (@fastify/static `preCompressed`) instead of compressing on every request.
// Brotli at its best quality is slow, which is fine once per build and pays on every download.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const outDir = path.resolve(import.meta.dirname, '..', process.env.WEB_OUT_DIR ?? 'dist');
const assets = path.join(outDir, 'assets');
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|map|webmanifest)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

let before = 0;
let after = 0;
for (const name of fs.readdirSync(assets)) {
  const file = path.join(assets, name);
  if (!COMPRESSIBLE.test(name) || !fs.statSync(file).isFile()) continue;
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  before += body.length;
  after += br.length;
}
console.log(`precompressed assets: ${Math.round(before / 1024)} KiB -> ${Math.round(after / 1024)} KiB (brotli)`);
