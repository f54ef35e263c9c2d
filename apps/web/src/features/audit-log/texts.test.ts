import { describe, expect, it } from 'vitest';
import { detailLines } from './texts';

describe('an audit record’s details', () => {
  it('shows plain values on a line, then each change before and after', () => {
    expect(
      detailLines({
        name: 'Harbour',
        count: 3,
        changes: { name: { from: 'Harbour', to: 'Harbour bridge' }, client_id: { from: null, to: 'c1' } },
      }),
    ).toEqual(['name: Harbour · count: 3', 'name: Harbour → Harbour bridge', 'client: (none) → c1']);
  });

  it('reads a change kept alone under its field, and leaves empty values out', () => {
    expect(detailLines({ role: { from: 'member', to: 'manager' }, note: '', retentionDays: null })).toEqual([
      'role: member → manager',
    ]);
    expect(detailLines({ changes: { retentionDays: { from: null, to: 365 } } })).toEqual([
      'retention days: (none) → 365',
    ]);
    expect(detailLines({})).toEqual([]);
  });
});
