// When to prune a license's attempt history. Deleting old attempts on every commit
// dirties the old end of the table and its indexes each time; deleting them in chunks of
// a tenth of VALIDATION_HISTORY_MAX costs a fraction of that. Between prunes a license
// may store up to that many extra attempts (per instance); reads show only the most
// recent VALIDATION_HISTORY_MAX (licenses.service.ts), so what the API shows is exact.
export class PruneSchedule {
  private readonly every: number;
  private readonly pending = new Map<string, number>();

  /** historyMax 0: keep everything, never prune. */
  constructor(readonly historyMax: number) {
    this.every = historyMax > 0 ? Math.max(1, Math.ceil(historyMax / 10)) : 0;
  }

  /** Counts `added` new attempts of the license; true when its history is due for pruning. */
  due(licenseId: string, added = 1): boolean {
    if (this.every === 0) return false;
    const count = (this.pending.get(licenseId) ?? 0) + added;
    if (count < this.every) {
      this.pending.set(licenseId, count);
      return false;
    }
    this.pending.delete(licenseId);
    return true;
  }
}
