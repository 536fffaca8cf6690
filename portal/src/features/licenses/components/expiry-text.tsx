// A license's expiry in words (issue #30): "Trial not started (14 days from first use)",
// "Trial ends <date>" once its clock runs (a first-use clock, or a license marked as a trial),
// a date, or "Never". `long` gives the exact time; lists keep it short (the not-started
// trial's days move to the hover text, so the 1280 px list keeps every column in view).
import { Time } from '../../../components/time';
import { formatDateTime, formatExpiry } from '../../../lib/format';
import type { License } from '../../../types/api';
import { trialNotStarted } from '../policy-values';

type ExpiryFacts = Pick<License, 'expiryBasis' | 'expiryStartedAtEpochMillis' | 'expiresAtEpochMillis' | 'validForDays'> & Partial<Pick<License, 'trial'>>;

export function ExpiryText({ license, long = false }: { license: ExpiryFacts; long?: boolean }) {
  if (trialNotStarted(license)) {
    const days = license.validForDays ? ` (${license.validForDays} days from first use)` : '';
    return (
      <span className="trial" title={`The clock starts at the first successful validation${license.validForDays ? ` and runs ${license.validForDays} days` : ''}.`}>
        Trial not started{long ? days : ''}
      </span>
    );
  }
  const at = license.expiresAtEpochMillis;
  if (at === null) return long ? <>{formatExpiry(null)}</> : <span title={formatExpiry(null)}>Never</span>;
  const trial = license.expiryBasis === 'firstValidation' || license.trial === true;
  const when = long ? formatDateTime(at) : <Time at={at} />;
  return trial ? <span className="trial">Trial ends {when}</span> : <>{when}</>;
}
