import { describe, expect, it } from 'vitest';
import { apiUrl } from './client';

describe('the API client', () => {
  it('fills a route’s parameters in, encoded, under /api/v1', () => {
    expect(
      apiUrl('POST /workspaces/:workspaceId/sso/domains/:domain/verify', {
        params: { workspaceId: 'w1', domain: 'a b/c.example' },
      }),
    ).toBe('/api/v1/workspaces/w1/sso/domains/a%20b%2Fc.example/verify');
  });

  it('writes a query from a string, URLSearchParams or values, leaving out the missing ones', () => {
    const route = 'GET /workspaces/:workspaceId/client-invoices';
    const params = { workspaceId: 'w1' };
    expect(apiUrl(route, { params, query: 'status=paid' })).toBe('/api/v1/workspaces/w1/client-invoices?status=paid');
    expect(apiUrl(route, { params, query: new URLSearchParams({ status: 'draft' }) })).toBe(
      '/api/v1/workspaces/w1/client-invoices?status=draft',
    );
    expect(apiUrl(route, { params, query: { status: null, limit: 5, all: true } })).toBe(
      '/api/v1/workspaces/w1/client-invoices?limit=5&all=true',
    );
    expect(apiUrl(route, { params, query: { status: undefined } })).toBe('/api/v1/workspaces/w1/client-invoices');
  });

  it('refuses, at type-check time, a route the API does not have and a missing parameter', () => {
    // @ts-expect-error: no such route in core’s table
    expect(() => apiUrl('GET /workspaces/:workspaceId/projectz', { params: { workspaceId: 'w1' } })).not.toThrow();
    // @ts-expect-error: the route needs its projectId
    expect(apiUrl('GET /workspaces/:workspaceId/projects/:projectId', { params: { workspaceId: 'w1' } })).toBe(
      '/api/v1/workspaces/w1/projects/',
    );
  });
});
