import { describe, expect, it } from 'vitest';
import { type RequiredTagList, type RuledTag, tagRuleProblem, tagRulesTurnOn } from './tag-rules.js';

const P1 = 'project-1';
const P2 = 'project-2';
const tag = (id: string, list: string, more: Partial<RuledTag> = {}): RuledTag => ({
  id,
  name: id,
  listId: list,
  listName: list,
  exclusive: false,
  listProjectIds: [],
  ...more,
});
const phase = { exclusive: true };
const TAGS: RuledTag[] = [
  tag('Design', 'Phase', phase),
  tag('Build', 'Phase', phase),
  tag('Meeting', 'Activity'),
  tag('Call', 'Activity'),
  tag('Ticket', 'Support', { listProjectIds: [P1] }),
];
const REQUIRED: RequiredTagList[] = [{ projectId: P1, listId: 'Activity', listName: 'Activity' }];
const check = (projectId: string | null, tagIds: string[], stopped = true, when = '') =>
  tagRuleProblem({ projectId, tagIds, stopped }, TAGS, REQUIRED, when);

describe('tag rules', () => {
  it('lets entries without rules through', () => {
    expect(check(null, [])).toBeNull();
    expect(check(P2, ['Meeting', 'Call', 'Design'])).toBeNull();
    expect(check(P1, ['Meeting', 'Call'])).toBeNull();
  });

  it('allows one tag of an exclusive list, names the list and both tags for two', () => {
    expect(check(P2, ['Design'])).toBeNull();
    expect(check(P2, ['Design', 'Build'])).toBe(
      'Pick only one tag from "Phase": "Design" and "Build" exclude each other.',
    );
    expect(check(P2, ['Design', 'Design'])).toBeNull();
  });

  it('allows a restricted list on its projects only', () => {
    expect(check(P1, ['Ticket', 'Meeting'])).toBeNull();
    expect(check(P2, ['Ticket'])).toBe('Tags of "Support" cannot be used on this project: remove "Ticket".');
    expect(check(null, ['Ticket'])).toBe(
      'Tags of "Support" are for some projects only: choose one of them, or remove "Ticket".',
    );
  });

  it('wants a tag of a required list on a stopped entry of the project, not on a running timer', () => {
    expect(check(P1, [])).toBe('This project needs a tag from "Activity": pick one.');
    expect(check(P1, ['Design'], true, ' before stopping the timer')).toBe(
      'This project needs a tag from "Activity": pick one before stopping the timer.',
    );
    expect(check(P1, [], false)).toBeNull();
    expect(check(P2, [])).toBeNull();
  });

  it('says the restriction first, then exclusivity, then what is missing', () => {
    expect(check(P2, ['Ticket', 'Design', 'Build'])).toContain('"Support"');
    expect(check(P1, ['Design', 'Build'])).toContain('"Phase"');
  });

  it('knows when rules are being turned on', () => {
    expect(tagRulesTurnOn({ exclusive: false, projectIds: [] }, 0)).toBe(false);
    expect(tagRulesTurnOn({ exclusive: true, projectIds: [] }, 0)).toBe(true);
    expect(tagRulesTurnOn({ exclusive: false, projectIds: [P1] }, 0)).toBe(true);
    expect(tagRulesTurnOn({ exclusive: false, projectIds: [] }, 1)).toBe(true);
  });
});
