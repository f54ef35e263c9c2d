import { describe, expect, it } from 'vitest';
import { personalPrivacy } from './privacy.js';

describe('personalPrivacy', () => {
  const workspace = { keep: 'sites', managersSeeActivity: false } as const;

  it('is the workspace’s without groups, or groups that chose nothing', () => {
    expect(personalPrivacy(workspace, [])).toEqual(workspace);
    expect(personalPrivacy(workspace, [{ keep: null, managersSeeActivity: null }])).toEqual(workspace);
  });

  it('takes a group’s choice over the workspace’s, either way', () => {
    expect(personalPrivacy(workspace, [{ keep: 'apps', managersSeeActivity: true }])).toEqual({
      keep: 'apps',
      managersSeeActivity: true,
    });
    // A group may keep more than the workspace (its people agreed to it).
    expect(
      personalPrivacy({ keep: 'apps', managersSeeActivity: true }, [{ keep: 'titles', managersSeeActivity: false }]),
    ).toEqual({
      keep: 'titles',
      managersSeeActivity: false,
    });
  });

  it('gives a person in several groups the most private of their choices', () => {
    const groups = [
      { keep: 'sites', managersSeeActivity: true },
      { keep: 'titles', managersSeeActivity: null },
      { keep: null, managersSeeActivity: false },
    ] as const;
    expect(personalPrivacy(workspace, groups)).toEqual({ keep: 'titles', managersSeeActivity: false });
    expect(personalPrivacy(workspace, groups.slice(0, 2))).toEqual({ keep: 'titles', managersSeeActivity: true });
  });
});
