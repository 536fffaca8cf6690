// The license's key (with copy), owner, product, expiry and limits.
import { Link } from 'react-router';
import { CopyButton } from '../../../components/copy-button';
import { formatDateTime, formatLimit, formatSelfReleaseLimit, formatSlotTimeout } from '../../../lib/format';
import type { License, Tier } from '../../../types/api';
import type { NameLookup } from './licenses-table';
import { StatusBadge } from './status-badge';
import { graceEnd } from '../policy-values';
import { BASIS_LABELS, FeatureChips } from './policy-fields';
import { ExpiryText } from './expiry-text';

/** "Pro (pro)" when the product's tiers are known, else the code; null: the base. */
export function tierName(tier: string | null, tiers: Tier[] | undefined): string {
  if (tier === null) return 'Base (no tier)';
  const found = tiers?.find((t) => t.code === tier);
  return found ? `${found.name} (${found.code})` : tier;
}

/** `tiers`: the product's, when the account may read products (names the license's tier). */
export function LicenseSummary({ license, names, tiers }: { license: License; names: NameLookup; tiers?: Tier[] }) {
  return (
    <section className="card">
      <p className="key-row">
        <span className="muted">License key</span>
        <code className="license-key" data-testid="license-key">
          {license.id}
        </code>
        <CopyButton text={license.id} label="Copy key" />
      </p>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="license-status">
          <StatusBadge license={license} />
        </dd>
        {license.revokedAtEpochMillis !== null ? (
          <>
            <dt>Revoked</dt>
            <dd data-testid="license-revoked">
              {formatDateTime(license.revokedAtEpochMillis)}
              {license.revokedReason ? ` (${license.revokedReason})` : ''}
            </dd>
          </>
        ) : null}
        <dt>Customer</dt>
        <dd>
          <Link to={`/customers/${license.customerId}`}>{names.customer(license.customerId)}</Link>
        </dd>
        <dt>Product</dt>
        <dd>{names.product(license.productId)}</dd>
        <dt>Tier</dt>
        <dd data-testid="license-tier">{tierName(license.tier, tiers)}</dd>
        <dt>Trial</dt>
        <dd data-testid="license-trial">{license.trial ? 'Yes: a sale of the product converts it (same key)' : 'No'}</dd>
        <dt>Expires</dt>
        <dd data-testid="license-expiry">
          <ExpiryText license={license} long />
        </dd>
        <dt>Expiry basis</dt>
        <dd data-testid="license-expiry-basis">
          {BASIS_LABELS[license.expiryBasis]}
          {license.validForDays !== null ? `, ${license.validForDays} days` : ''}
        </dd>
        <dt>Grace</dt>
        <dd data-testid="license-grace">
          {license.graceDays === null ? 'None' : `${license.graceDays} days after expiry`}
          {graceEnd(license) !== null ? ` (until ${formatDateTime(graceEnd(license)!)})` : ''}
        </dd>
        <dt>Features</dt>
        <dd data-testid="license-features">
          <FeatureChips features={license.effectiveFeatures} />
        </dd>
        <dt>Reasons to the client</dt>
        <dd data-testid="license-reveal-reasons">{license.revealReasons === null ? "The product's setting" : license.revealReasons ? 'Yes' : 'No'}</dd>
        <dt>Max IPs</dt>
        <dd data-testid="license-max-ips">{formatLimit(license.maxIps)}</dd>
        <dt>Max HWIDs</dt>
        <dd data-testid="license-max-hwids">{formatLimit(license.maxHwids)}</dd>
        <dt>Idle slots freed</dt>
        <dd data-testid="license-slot-timeout">{formatSlotTimeout(license.slotTimeoutMinutes)}</dd>
        <dt>Self-service releases</dt>
        <dd data-testid="license-self-releases">
          {license.selfReleasesLeft === null
            ? 'Off'
            : `${license.selfReleasesUsed} used, ${license.selfReleasesLeft} left (${formatSelfReleaseLimit(license.selfReleaseLimit)})`}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(license.createdAtEpochMillis)}</dd>
        <dt>Version</dt>
        <dd>{license.version}</dd>
      </dl>
    </section>
  );
}
