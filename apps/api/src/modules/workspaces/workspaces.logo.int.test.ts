import type { Role } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { auditTrail, signUp, useTestApp } from '../../../test/harness.js';
import { greyPng, jpegHeader } from '../../../test/png.js';
import { membersRepository } from '../members/members.repository.js';

/** The workspace's logo: owners and admins set and remove it, every member reads it, checked by its bytes. */
const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);
const upload = (bytes: Buffer) => ({ data: bytes.toString('base64') });

async function workspaceWith(role: Role) {
  const owner = await signUp(ctx.t.app);
  const other = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: other.userId, role });
  return { owner, other, url: `/api/v1/workspaces/${owner.workspaceId}/logo` };
}

describe('workspace logo', () => {
  it('is set, read back byte for byte, replaced and removed, each change audited', async () => {
    const { owner, other, url } = await workspaceWith('member');
    expect((await call('GET', url, owner.cookie)).statusCode).toBe(404);
    const png = greyPng(120, 40);
    const set = await call('PUT', url, owner.cookie, upload(png));
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ contentType: 'image/png', width: 120, height: 40 });
    // Every member reads it (the PDF exports show it).
    const read = await call('GET', url, other.cookie);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.rawPayload.equals(png)).toBe(true);

    const jpeg = jpegHeader(300, 100);
    expect((await call('PUT', url, owner.cookie, upload(jpeg))).json()).toEqual({
      contentType: 'image/jpeg',
      width: 300,
      height: 100,
    });
    expect((await call('GET', url, owner.cookie)).headers['content-type']).toBe('image/jpeg');

    expect((await call('DELETE', url, owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', url, owner.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', url, owner.cookie)).json().error.message).toBe('This workspace has no logo.');

    const audits = await auditTrail(ctx.t.db, { workspaceId: owner.workspaceId, action: 'workspace.logo%' });
    expect(audits.map((a) => a.action)).toEqual([
      'workspace.logo_updated',
      'workspace.logo_updated',
      'workspace.logo_removed',
    ]);
  });

  it('is announced by the workspace view (hasLogo), so the app never asks for a logo that is not there', async () => {
    const { owner, other, url } = await workspaceWith('member');
    const hasLogo = async (cookie: string) => {
      const me = (await call('GET', '/api/v1/me', cookie)).json();
      const listed = (await call('GET', '/api/v1/workspaces', cookie)).json().items;
      const detail = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, cookie)).json();
      const inMe = me.workspaces.find((w: { id: string }) => w.id === owner.workspaceId).hasLogo;
      const inList = listed.find((w: { id: string }) => w.id === owner.workspaceId).hasLogo;
      expect([inList, detail.hasLogo]).toEqual([inMe, inMe]);
      return inMe as boolean;
    };
    expect(await hasLogo(owner.cookie)).toBe(false);
    expect((await call('PUT', url, owner.cookie, upload(greyPng(64, 64)))).statusCode).toBe(200);
    expect(await hasLogo(owner.cookie)).toBe(true);
    expect(await hasLogo(other.cookie)).toBe(true);
    expect((await call('DELETE', url, owner.cookie)).statusCode).toBe(204);
    expect(await hasLogo(other.cookie)).toBe(false);
  });

  it('refuses what is not a PNG or JPEG, too large a file and too small or large an image, saying why', async () => {
    const { owner, url } = await workspaceWith('member');
    const refusal = async (bytes: Buffer) => {
      const response = await call('PUT', url, owner.cookie, upload(bytes));
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error.message as string;
    };
    expect(await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      'The logo must be a PNG or JPEG image.',
    );
    // A GIF named logo.png is still a GIF.
    expect(await refusal(Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1'))).toBe(
      'The logo must be a PNG or JPEG image.',
    );
    expect(await refusal(Buffer.alloc(0))).toBe('The logo file is empty.');
    expect(await refusal(greyPng(8, 8))).toBe('The logo is 8×8 pixels; each side must be between 16 and 2048 pixels.');
    expect(await refusal(jpegHeader(4000, 100))).toMatch(/4000×100 pixels/);
    expect(await refusal(greyPng(16, 16).subarray(0, 20))).toBe('The logo is not a readable PNG image.');
    const big = Buffer.concat([greyPng(16, 16), Buffer.alloc(260 * 1024)]);
    expect(await refusal(big)).toMatch(/at most 256 KB/);
    const notBase64 = await call('PUT', url, owner.cookie, { data: 'not base64!' });
    expect(notBase64.statusCode).toBe(422);
    expect((await call('GET', url, owner.cookie)).statusCode).toBe(404);
  });

  it('lets only owners and admins change it, and nobody outside the workspace see it', async () => {
    const png = upload(greyPng(32, 32));
    for (const role of ['admin', 'manager', 'member', 'guest'] as const) {
      const { other, url } = await workspaceWith(role);
      const allowed = role === 'admin';
      expect((await call('PUT', url, other.cookie, png)).statusCode).toBe(allowed ? 200 : 403);
      expect((await call('DELETE', url, other.cookie)).statusCode).toBe(allowed ? 204 : 403);
    }
    const { owner, url } = await workspaceWith('member');
    await call('PUT', url, owner.cookie, png);
    const stranger = await signUp(ctx.t.app);
    for (const response of [
      await call('GET', url, stranger.cookie),
      await call('PUT', url, stranger.cookie, png),
      await call('DELETE', url, stranger.cookie),
    ])
      expect(response.statusCode).toBe(404);
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('GET', url, owner.cookie)).statusCode).toBe(200);
  });
});
