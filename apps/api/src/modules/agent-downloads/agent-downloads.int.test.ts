import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';

const root = path.resolve(import.meta.dirname, '../../../../..');
const version = JSON.parse(readFileSync(path.join(root, 'packages/agent/package.json'), 'utf8')).version;

describe('the desktop agent download', () => {
  let dir: string;
  let built: TestApp;
  let none: TestApp;
  beforeAll(async () => {
    // The real bundle, built as npm run build:agent builds it, into a folder of the test's own.
    dir = mkdtempSync(path.join(tmpdir(), 'sundial-agent-'));
    execFileSync(process.execPath, [path.join(root, 'scripts/build-agent.mjs'), path.join(dir, 'sundial-agent.mjs')], {
      stdio: 'ignore',
    });
    built = await createTestApp({ AGENT_DIST: path.join(dir, 'sundial-agent.mjs') });
    none = await createTestApp();
  });
  afterAll(async () => {
    await built?.close();
    await none?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says which agent it offers, and serves that file, which runs', async () => {
    const release = await built.app.inject({ method: 'GET', url: '/api/v1/agent/release' });
    expect(release.statusCode, release.body).toBe(200);
    const view = release.json();
    expect(view).toMatchObject({ available: true, version, fileName: 'sundial-agent.mjs' });

    const file = await built.app.inject({ method: 'GET', url: '/api/v1/agent/download' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('sundial-agent.mjs');
    expect(file.rawPayload.length).toBe(view.sizeBytes);
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(view.sha256);
    expect(file.headers.etag).toBe(`"${view.sha256}"`);
    const again = await built.app.inject({
      method: 'GET',
      url: '/api/v1/agent/download',
      headers: { 'if-none-match': `"${view.sha256}"` },
    });
    expect(again.statusCode).toBe(304);

    const downloaded = path.join(dir, 'downloaded.mjs');
    writeFileSync(downloaded, file.rawPayload);
    expect(execFileSync(process.execPath, [downloaded, '--version'], { encoding: 'utf8' }).trim()).toContain(version);
  });

  it('says so when the server has no agent built, and answers 404 to a download', async () => {
    const release = await none.app.inject({ method: 'GET', url: '/api/v1/agent/release' });
    expect(release.json()).toMatchObject({ available: false, version: null, sizeBytes: null, sha256: null });
    const file = await none.app.inject({ method: 'GET', url: '/api/v1/agent/download' });
    expect(file.statusCode).toBe(404);
    expect(file.json().error.code).toBe('agent_not_built');
  });

  it('does not believe a manifest that does not fit the file beside it (a build cut short)', async () => {
    writeFileSync(path.join(dir, 'sundial-agent.mjs'), 'partial');
    const release = await built.app.inject({ method: 'GET', url: '/api/v1/agent/release' });
    expect(release.json().available).toBe(false);
  });
});
