// What this instance last saw of a bound, valid validation: the license's row (with its
// version) and its slot counts, for one license + IP + HWID whose IP and HWID were both
// bound. The next such request is decided from this row by decideValidation, like any other,
// and when the decision is VALID and writes nothing it is recorded by one statement that
// inserts its attempt only if the row still holds (same version, both values still bound),
// checked in the statement's own snapshot: one round trip instead of a read and an insert.
// Every change of the license row bumps its version (PUT, revoke, reinstate, a started
// clock) and a delete removes it; a released binding fails the binding check. So a change
// committed on any instance before the request arrives is seen by it, as with a read
// (DECISIONS.md). The product's features and reveal setting apply live, so the recording
// statement reads them back.
import type { LicenseLimits } from './validation.facts.js';
import type { ValidationRequest } from './validation.types.js';

export interface BoundFacts {
  version: number;
  /** The license's row as read (its product's live settings are replaced by the recording statement's). */
  license: LicenseLimits;
  ipsUsed: number;
  hwidsUsed: number;
  /** When this instance last knew the IP / HWID seen (for the once-a-second last-seen refresh). */
  ipSeen: number;
  hwidSeen: number;
}

/** Entries kept at most; the oldest go first (a busy license is re-read once when it comes back). */
const MAX_ENTRIES = 50_000;

/** The key of a license + IP + HWID; also how the recording statement's answers are matched. */
export const boundKey = (req: Pick<ValidationRequest, 'licenseId' | 'ip' | 'hwid'>) => `${req.licenseId}\u0000${req.ip}\u0000${req.hwid}`;

export class BoundFactsCache {
  private readonly entries = new Map<string, BoundFacts>();

  get(req: ValidationRequest): BoundFacts | undefined {
    return this.entries.get(boundKey(req));
  }

  remember(req: ValidationRequest, facts: BoundFacts): void {
    const key = boundKey(req);
    this.entries.delete(key);
    this.entries.set(key, facts);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(req: ValidationRequest): void {
    this.entries.delete(boundKey(req));
  }
}
