// The blocklist as one instance holds it in memory: exact-match maps for IPs and HWIDs, and
// for CIDRs one map per prefix length present (network number -> rules), so a lookup costs
// one map probe per distinct prefix length, whatever the number of rules. Pure: built from
// rows, asked which rules match a request; loading and refreshing are blocklist.cache.ts's job.
import { canonicalIp } from '../../lib/ip-address.js';
import { cidrKey, numericAddress } from './ip-values.js';

export type RuleType = 'ip' | 'cidr' | 'hwid';
export type RuleMode = 'block' | 'flag';

/** What matching needs of a rule. */
export interface IndexedRule {
  id: string;
  type: RuleType;
  value: string;
  mode: RuleMode;
  productId: string | null;
  licenseId: string | null;
  /** null: never expires */
  expiresAt: number | null;
}

/** What a request presents. */
export interface Presented {
  ip: string;
  /** absent: the request names no HWID (a release that names only an IP) */
  hwid?: string;
  licenseId: string;
  productId: string;
}

type Bucket = Map<number | bigint, IndexedRule[]>;

const push = <K>(map: Map<K, IndexedRule[]>, key: K, rule: IndexedRule) => {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
};

/** In scope: everything, the request's product, or the request's license; and not expired. */
const applies = (rule: IndexedRule, req: Presented, now: number): boolean =>
  (rule.expiresAt === null || now < rule.expiresAt) &&
  (rule.licenseId !== null ? rule.licenseId === req.licenseId : rule.productId === null || rule.productId === req.productId);

export class RuleIndex {
  private readonly ips = new Map<string, IndexedRule[]>();
  private readonly hwids = new Map<string, IndexedRule[]>();
  /** prefix length -> bucket, per family; the lengths kept in an array for the lookup loop */
  private readonly v4 = new Map<number, Bucket>();
  private readonly v6 = new Map<number, Bucket>();
  private v4Prefixes: number[] = [];
  private v6Prefixes: number[] = [];
  readonly size: number;

  constructor(rules: readonly IndexedRule[]) {
    for (const rule of rules) {
      if (rule.type === 'ip') push(this.ips, rule.value, rule);
      else if (rule.type === 'hwid') push(this.hwids, rule.value, rule);
      else {
        const key = cidrKey(rule.value);
        const byPrefix = key.family === 4 ? this.v4 : this.v6;
        let bucket = byPrefix.get(key.prefix);
        if (!bucket) byPrefix.set(key.prefix, (bucket = new Map()));
        push(bucket, key.network, rule);
      }
    }
    this.v4Prefixes = [...this.v4.keys()];
    this.v6Prefixes = [...this.v6.keys()];
    this.size = rules.length;
  }

  /** Every rule in force that matches the request (block and flag alike). */
  match(req: Presented, now: number): IndexedRule[] {
    if (this.size === 0) return [];
    const found: IndexedRule[] = [];
    const take = (rules: IndexedRule[] | undefined) => {
      if (rules) for (const rule of rules) if (applies(rule, req, now)) found.push(rule);
    };
    // IPv4 text is canonical already; IPv6 may be spelled otherwise, or be an IPv4-mapped address.
    const ip = req.ip.includes(':') ? (canonicalIp(req.ip) ?? req.ip) : req.ip;
    take(this.ips.get(ip));
    if (req.hwid !== undefined) take(this.hwids.get(req.hwid));
    if (this.v4Prefixes.length > 0 || this.v6Prefixes.length > 0) {
      const address = numericAddress(ip);
      if (address?.family === 4) {
        for (const prefix of this.v4Prefixes) take(this.v4.get(prefix)!.get(prefix === 0 ? 0 : address.value >>> (32 - prefix)));
      } else if (address) {
        for (const prefix of this.v6Prefixes) take(this.v6.get(prefix)!.get(address.value >> BigInt(128 - prefix)));
      }
    }
    return found;
  }
}
