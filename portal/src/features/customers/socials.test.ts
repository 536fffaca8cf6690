import { describe, expect, it } from 'vitest';
import { joinSocials, splitSocials } from './socials';

describe('socials editing', () => {
  it('splits twitter and linkedin from the other keys, keeping webhook keys', () => {
    expect(splitSocials({ twitter: 'acme', MarketplaceID: '42', SteamID: '7656' })).toEqual({
      twitter: 'acme',
      linkedin: '',
      others: [
        { key: 'MarketplaceID', value: '42' },
        { key: 'SteamID', value: '7656' },
      ],
    });
    expect(splitSocials(undefined)).toEqual({ twitter: '', linkedin: '', others: [] });
  });

  it('joins back, trimming and dropping empty entries', () => {
    expect(joinSocials(' acme ', '', [{ key: 'MarketplaceID', value: '42' }, { key: '', value: 'x' }, { key: 'github', value: ' ' }])).toEqual({
      MarketplaceID: '42',
      twitter: 'acme',
    });
  });
});
