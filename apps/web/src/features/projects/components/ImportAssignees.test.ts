import { describe, expect, it } from 'vitest';
import { proposeChoices, runAssignees, UNASSIGNED } from './ImportAssignees';

const unmatched = [
  { name: 'Bob Stone', tasks: 2 },
  { name: 'ann@old.example', tasks: 1 },
  { name: 'Cy', tasks: 1 },
];

describe('the mapping step of a project tool’s import', () => {
  it('proposes the one member of the same name, letter case and spaces aside, and no one when two share it', () => {
    const users = [
      { id: 'u1', name: ' bob stone' },
      { id: 'u2', name: 'Cy' },
      { id: 'u3', name: 'cy' },
    ];
    expect(proposeChoices(unmatched, users)).toEqual({ 'Bob Stone': 'u1' });
  });

  it('sends a member or null for each person chosen for, and nothing for the others (the API refuses that)', () => {
    expect(runAssignees(unmatched, { 'Bob Stone': 'u1', 'ann@old.example': UNASSIGNED })).toEqual([
      { name: 'Bob Stone', userId: 'u1' },
      { name: 'ann@old.example', userId: null },
    ]);
  });
});
