// A license's expiry in words (issue #30): "Trial not started (14 days from first use)",
// "Trial ends <date>" once its clock runs, a date, or "Never". `long` gives the exact time.
import { Time } from '../../../components/time';
import { formatDateTime, formatExpiry } from '../../../lib/format';
import type { License } from '../../../types/api';
import { trialNotStarted } from '../policy-values';

type ExpiryFacts = Pick<License, 'expiryBasis' | 'expiryStartedAtEpochMillis' | 'expiresAtEpochMillis' | 'validForDays'>;

export function ExpiryText({ license, long = false }: { license: ExpiryFacts; long?: boolean }) {
  if (trialNotStarted(license)) {
    return (
      <span className="trial" title={`The clock starts at the first successful validation${license.validForDays ? ` and runs ${license.validForDays} days` : ''}.`}>
        Trial not started{license.validForDays ? ` (${license.validForDays} days from first use)` : ''}
      </span>
    );
  }
  const at = license.expiresAtEpochMillis;
  if (at === null) return long ? <>{formatExpiry(null)}</> : <span title={formatExpiry(null)}>Never</span>;
  const trial = license.expiryBasis === 'firstValidation';
  const when = long ? formatDateTime(at) : <Time at={at} />;
  return trial ? <span className="trial">Trial ends {when}</span> : <>{when}</>;
}
