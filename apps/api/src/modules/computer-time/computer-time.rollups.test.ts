import { describe, expect, it } from 'vitest';
import { dailyDeltas, type RolledSpan } from './computer-time.rollups.js';

const active = (app: string, from: string, to: string, url: string | null = null): RolledSpan => ({
  kind: 'active',
  app,
  url,
  started_at: new Date(from),
  ended_at: new Date(to),
});

describe('daily rollups of spans', () => {
  it('split a span at the person’s midnight and add up per day and application', () => {
    const deltas = dailyDeltas(
      [
        active('code', '2026-03-01T22:30:00Z', '2026-03-01T23:30:00Z'),
        active('code', '2026-03-01T23:30:00Z', '2026-03-01T23:45:00Z'),
        {
          kind: 'away',
          app: null,
          url: null,
          started_at: new Date('2026-03-01T23:45:00Z'),
          ended_at: new Date('2026-03-02T01:00:00Z'),
        },
      ],
      'Europe/Paris',
    );
    // 23:30 to 00:30 and 00:30 to 00:45 in Paris (UTC+1); away time is not an application's.
    expect([...deltas.values()]).toEqual([
      { day: '2026-03-01', app: 'code', site: '', seconds: 1800 },
      { day: '2026-03-02', app: 'code', site: '', seconds: 2700 },
    ]);
  });

  it('count the 23-hour day of a clock change as it is, and take back exactly what they added', () => {
    // New York springs forward on 2026-03-08: local midnight to midnight is 23 hours.
    const day = [active('terminal', '2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z')];
    expect([...dailyDeltas(day, 'America/New_York').values()]).toEqual([
      { day: '2026-03-08', app: 'terminal', site: '', seconds: 23 * 3600 },
    ]);
    const spans = [active('a', '2026-03-08T05:00:00.400Z', '2026-03-08T05:00:01.900Z')];
    const added = dailyDeltas(spans, 'UTC');
    const removed = dailyDeltas(spans, 'UTC', -1);
    expect([...added.values()][0]?.seconds).toBe(-([...removed.values()][0]?.seconds ?? 0));
  });

  it('add up a browser’s time per site (the page’s host, without www.), pages of one site together', () => {
    const deltas = dailyDeltas(
      [
        active('firefox', '2026-03-02T09:00:00Z', '2026-03-02T09:10:00Z', 'https://github.com/acme/app/pull/7'),
        active('firefox', '2026-03-02T09:10:00Z', '2026-03-02T09:15:00Z', 'https://www.github.com/acme/app'),
        active('firefox', '2026-03-02T09:15:00Z', '2026-03-02T09:20:00Z', 'https://news.ycombinator.com/'),
        active('firefox', '2026-03-02T09:20:00Z', '2026-03-02T09:21:00Z', null),
      ],
      'UTC',
    );
    expect([...deltas.values()]).toEqual([
      { day: '2026-03-02', app: 'firefox', site: 'github.com', seconds: 900 },
      { day: '2026-03-02', app: 'firefox', site: 'news.ycombinator.com', seconds: 300 },
      { day: '2026-03-02', app: 'firefox', site: '', seconds: 60 },
    ]);
  });
});
