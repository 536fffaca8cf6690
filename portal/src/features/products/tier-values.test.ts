import { describe, expect, it } from 'vitest';
import type { Tier } from '../../types/api';
import { canAddTier, tierDraft, tierFromDraft, tierProblems, withTier, withoutTier } from './tier-values';

const pro: Tier = { code: 'pro', name: 'Pro', features: { seats: 10, beta: null }, marketplaceResourceId: 'bbb-2', polymartProductId: null };

describe('tier drafts', () => {
  it('round-trips a tier through the form (empty ids become null, text trimmed)', () => {
    expect(tierFromDraft(tierDraft(pro))).toEqual(pro);
    expect(tierFromDraft({ ...tierDraft(), code: ' team ', name: ' Team ', marketplaceResourceId: ' ', polymartProductId: ' pm-9 ' })).toEqual({
      code: 'team',
      name: 'Team',
      features: {},
      marketplaceResourceId: null,
      polymartProductId: 'pm-9',
    });
  });

  it("checks the code against the server's pattern, codes unique in the product, a name, the features and the product's own ids", () => {
    expect(tierProblems(tierDraft(), [])).toEqual({ code: 'Required.', name: 'Required.' });
    expect(tierProblems({ ...tierDraft(), code: 'Pro!', name: 'x' }, []).code).toMatch(/^Use lower-case letters.*at most 32\)\.$/);
    expect(tierProblems({ ...tierDraft(), code: 'a'.repeat(33), name: 'x' }, []).code).toMatch(/at most 32/);
    expect(tierProblems({ ...tierDraft(), code: 'a'.repeat(32), name: 'x' }, [])).toEqual({});
    expect(tierProblems({ ...tierDraft(), code: 'pro', name: 'x' }, [pro]).code).toBe('Another tier of this product has the code pro.');
    expect(tierProblems({ ...tierDraft(), code: 'team', name: 'x'.repeat(101) }, []).name).toBe('At most 100 characters.');
    expect(tierProblems({ ...tierDraft(), code: 'team', name: 'Team', features: [{ key: 'Bad Key', type: 'boolean', value: 'true' }] }, []).features).toMatch(/^Key "Bad Key"/);
    const sameIds = { ...tierDraft(), code: 'team', name: 'Team', marketplaceResourceId: 'bbb-2', polymartProductId: 'pm-1' };
    expect(tierProblems(sameIds, [pro], { marketplaceResourceId: 'bbb-1', polymartProductId: 'pm-1' })).toEqual({
      marketplaceResourceId: 'This product or another of its tiers already sells under this id.',
      polymartProductId: 'This product or another of its tiers already sells under this id.',
    });
  });

  it('builds the list a save sends: added at the end, replaced in place, removed', () => {
    const team: Tier = { code: 'team', name: 'Team', features: {} };
    expect(withTier([pro], null, team)).toEqual([pro, team]);
    expect(withTier([pro, team], 'pro', { ...pro, code: 'plus' })).toEqual([{ ...pro, code: 'plus' }, team]);
    expect(withoutTier([pro, team], 'pro')).toEqual([team]);
    expect(canAddTier(Array.from({ length: 15 }, () => team))).toBe(true);
    expect(canAddTier(Array.from({ length: 16 }, () => team))).toBe(false);
  });
});
