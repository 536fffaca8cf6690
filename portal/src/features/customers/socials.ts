// Editing a customer's socials: twitter and linkedin have their own inputs; any other
// key (MarketplaceID, SteamID from the webhook, or custom ones) is kept as a row.

export interface SocialRow {
  key: string;
  value: string;
}

export const NAMED_SOCIALS = ['twitter', 'linkedin'] as const;

export function splitSocials(socials: Record<string, string> | null | undefined) {
  const all = socials ?? {};
  return {
    twitter: all.twitter ?? '',
    linkedin: all.linkedin ?? '',
    others: Object.entries(all)
      .filter(([key]) => !(NAMED_SOCIALS as readonly string[]).includes(key))
      .map(([key, value]) => ({ key, value })),
  };
}

/** Back to the API's object; empty values and empty keys are dropped. */
export function joinSocials(twitter: string, linkedin: string, others: SocialRow[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const row of others) {
    const key = row.key.trim();
    if (key !== '' && row.value.trim() !== '') result[key] = row.value.trim();
  }
  if (twitter.trim() !== '') result.twitter = twitter.trim();
  if (linkedin.trim() !== '') result.linkedin = linkedin.trim();
  return result;
}
