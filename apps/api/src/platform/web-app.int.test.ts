import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

/** Compressible text large enough to be worth compressing, and different in every file. */
const bulky = (label: string) => Array.from({ length: 400 }, (_, i) => `console.log("${label} ${i}");`).join('\n');

const ASSET = 'assets/app-Ab12Cd34.js';
const SCRIPT = bulky('app');

/** A web build in miniature: the SPA shell, one hashed asset with the build's .br/.gz beside it, an image. */
function writeWebDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-web-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><body>${bulky('shell')}</body></html>`);
  fs.writeFileSync(path.join(dist, ASSET), SCRIPT);
  fs.writeFileSync(path.join(dist, `${ASSET}.br`), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dist, `${ASSET}.gz`), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

describe('serving the web app and the API over the wire', () => {
  let dist: string;
  let t: TestApp;
  beforeAll(async () => {
    dist = writeWebDist();
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed asset precompressed, as the client accepts, and cacheable for a year', async () => {
    const br = await t.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await t.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe(SCRIPT);
  });

  it('revalidates what is not hashed: the app shell and files outside assets/', async () => {
    const shell = await t.app.inject({ url: '/homepage/timesheet', headers: { 'accept-encoding': 'br' } });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-cache');
    // The shell is compressed on the fly.
    expect(shell.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(shell.rawPayload).toString()).toContain('shell 399');

    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('compresses JSON answers of the API, and leaves small ones alone', async () => {
    const big = await t.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    const document = JSON.parse(zlib.gunzipSync(big.rawPayload).toString());
    expect(document.openapi).toBe('3.1.0');
    expect(big.rawPayload.length).toBeLessThan(JSON.stringify(document).length / 3);

    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with the JSON 404, not the app shell', async () => {
    const response = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});
