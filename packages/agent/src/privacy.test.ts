import { describe, expect, it } from 'vitest';
import { createPrivacyFilter } from './privacy.js';

const browser = {
  app: 'firefox',
  title: 'Invoice 42 - Bank',
  url: 'https://user:pw@bank.example/accounts/42?token=s3cret#top',
};

describe('privacy on the computer', () => {
  it('keeps only the application when the workspace keeps applications', () => {
    expect(createPrivacyFilter({ keep: 'apps', exclusions: [] })(browser)).toEqual({
      app: 'firefox',
      title: null,
      url: null,
    });
  });

  it('keeps titles but no address when the workspace keeps titles', () => {
    expect(createPrivacyFilter({ keep: 'titles', exclusions: [] })(browser)).toEqual({
      app: 'firefox',
      title: 'Invoice 42 - Bank',
      url: null,
    });
  });

  it('keeps the address without its query, fragment or credentials when the workspace keeps sites', () => {
    expect(createPrivacyFilter({ keep: 'sites', exclusions: [] })(browser).url).toBe(
      'https://bank.example/accounts/42',
    );
  });

  it('sends an excluded window as "excluded" with neither title nor address', () => {
    const filter = createPrivacyFilter({
      keep: 'sites',
      exclusions: [
        { field: 'title', pattern: 'bank' },
        { field: 'app', pattern: 'keepass*' },
      ],
    });
    expect(filter(browser)).toEqual({ app: 'excluded', title: null, url: null });
    expect(filter({ app: 'KeePassXC', title: 'Passwords', url: null })).toEqual({
      app: 'excluded',
      title: null,
      url: null,
    });
    expect(filter({ app: 'code', title: 'notes.md', url: null })).toEqual({
      app: 'code',
      title: 'notes.md',
      url: null,
    });
  });
});
