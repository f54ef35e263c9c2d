import { describe, expect, it } from 'vitest';
import { compilePattern, compileSitePattern, hostOf, siteOf, stripUrl } from './patterns.js';

describe('compilePattern', () => {
  it('matches a value that contains the pattern, ignoring case, * standing for any run', () => {
    const matches = compilePattern('slack*private');
    expect(matches('Slack - private channel')).toBe(true);
    expect(matches('private Slack')).toBe(false);
    expect(compilePattern('Code')('code-oss')).toBe(true);
    expect(compilePattern('a.b')('axb')).toBe(false);
    expect(compilePattern('(')('f(x)')).toBe(true);
  });
});

describe('compileSitePattern', () => {
  it('matches a host or a subdomain of it, never a longer name', () => {
    const x = compileSitePattern('x.com');
    expect(x('x.com')).toBe(true);
    expect(x('mobile.x.com/home')).toBe(true);
    expect(x('x.com:8443/a')).toBe(true);
    expect(x('netflix.com')).toBe(false);
    expect(x('x.community.org')).toBe(false);
    expect(x('example.net/x.com')).toBe(false);
  });

  it('matches a path where a segment ends, and * anywhere', () => {
    expect(compileSitePattern('google.com/maps')('google.com/maps/place/x')).toBe(true);
    expect(compileSitePattern('google.com/maps')('google.com/mapsearch')).toBe(false);
    expect(compileSitePattern('*.google.com')('docs.google.com/document/d/1')).toBe(true);
    expect(compileSitePattern('*.google.com')('docs.google.com.example.net')).toBe(false);
    expect(compileSitePattern('github.com/acme*')('github.com/acme-tools/app')).toBe(true);
    expect(compileSitePattern('HTTPS://www.GitHub.com')('github.com/a')).toBe(true);
  });
});

describe('stripUrl and siteOf', () => {
  it('keep scheme, host and path only', () => {
    expect(stripUrl('https://me:pw@example.com:8080/a/b?c=d#e')).toBe('https://example.com:8080/a/b');
    expect(stripUrl('file:///home/me/secret.txt')).toBeNull();
    expect(stripUrl('not a url')).toBeNull();
    expect(siteOf('https://www.github.com/acme?tab=1')).toBe('github.com/acme');
    expect(siteOf(null)).toBeNull();
  });
});

describe('hostOf', () => {
  it('keeps a page’s host alone, without www., and nothing of what is not a web page', () => {
    expect(hostOf('https://www.github.com/acme/app/pull/7?tab=files#top')).toBe('github.com');
    expect(hostOf('http://localhost:3000/homepage')).toBe('localhost:3000');
    expect(hostOf('file:///home/ann/notes.txt')).toBeNull();
    expect(hostOf('not a url')).toBeNull();
    expect(hostOf(null)).toBeNull();
  });
});
