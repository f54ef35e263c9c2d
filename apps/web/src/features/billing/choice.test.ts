import { describe, expect, it } from 'vitest';
import { choiceFromSearch, choiceSearch } from './choice';

describe('the purchase choice in the URL', () => {
  it('goes there and comes back unchanged', () => {
    const choice = { plan: 'pro', cycle: 'annual', licenses: 3 } as const;
    expect(choiceSearch(choice)).toBe('plan=pro&cycle=annual&licenses=3');
    expect(choiceFromSearch(new URLSearchParams(choiceSearch(choice)))).toEqual(choice);
  });

  it('is no choice when a part cannot be bought', () => {
    const of = (search: string) => choiceFromSearch(new URLSearchParams(search));
    expect(of('plan=enterprise&cycle=annual&licenses=3')).toBeNull();
    expect(of('plan=free&cycle=annual&licenses=3')).toBeNull();
    expect(of('plan=pro&cycle=weekly&licenses=3')).toBeNull();
    expect(of('plan=pro&cycle=monthly&licenses=0')).toBeNull();
    expect(of('plan=pro&cycle=monthly&licenses=1000')).toBeNull();
    expect(of('plan=pro&cycle=monthly&licenses=2.5')).toBeNull();
    expect(of('plan=pro&cycle=monthly')).toBeNull();
    expect(of('plan=basic&cycle=monthly&licenses=999')).toEqual({ plan: 'basic', cycle: 'monthly', licenses: 999 });
  });
});
