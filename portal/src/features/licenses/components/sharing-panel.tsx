// Shared-key detection on a license's page: whether it is suspected (and since when), the
// alert in force, how many distinct IPs and HWIDs presented it within the window, and the
// values seen most; staff who may write licenses clear the mark (which re-arms the alert).
import { ErrorMessage, Notice } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import type { LicenseSharing } from '../../../types/api';
import { useClearSharing, useLicenseSharing } from '../api/license-sharing';

type TopValue = LicenseSharing['topValues']['ips'][number];

function limitText(count: number | null, limit: number | undefined) {
  return limit === undefined ? `${count ?? 0}` : `${count ?? 0} of at most ${limit}`;
}

function TopList({ title, values }: { title: string; values: TopValue[] }) {
  return (
    <div>
      <h3>{title}</h3>
      {values.length === 0 ? (
        <p className="muted">None recorded in the window.</p>
      ) : (
        <ul className="plain-list">
          {values.map((v) => (
            <li key={v.value}>
              <code>{v.value}</code> — {v.attempts} attempt{v.attempts === 1 ? '' : 's'}, last {formatDateTime(v.lastSeenAtEpochMillis)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function SharingPanel({ licenseId, canClear }: { licenseId: string; canClear: boolean }) {
  const sharing = useLicenseSharing(licenseId);
  const clear = useClearSharing(licenseId);
  const data = sharing.data;
  if (sharing.error) return <ErrorMessage error={sharing.error} />;
  if (!data || (data.alert === null && data.suspectedAtEpochMillis === null)) return null;
  return (
    <section className="card" data-testid="sharing-panel">
      <h2>Shared-key detection</h2>
      {data.suspectedAtEpochMillis !== null ? (
        <Notice tone="warning">
          <strong>Suspected of sharing</strong> since {formatDateTime(data.suspectedAtEpochMillis)}: presented from more distinct machines than its alert
          allows. Block the values that are not the buyer’s (validation history below), or revoke and reissue the key.
        </Notice>
      ) : null}
      {data.alert ? (
        <>
          <p>
            Alert ({data.alertSource === 'license' ? 'this license’s own' : 'from its product'}): within the last {data.alert.windowHours} hour
            {data.alert.windowHours === 1 ? '' : 's'}, <span data-testid="sharing-ips">{limitText(data.distinctIps, data.alert.distinctIps)}</span> distinct IPs and{' '}
            <span data-testid="sharing-hwids">{limitText(data.distinctHwids, data.alert.distinctHwids)}</span> distinct HWIDs.
          </p>
          <div className="two-columns">
            <TopList title="IPs seen most" values={data.topValues.ips} />
            <TopList title="HWIDs seen most" values={data.topValues.hwids} />
          </div>
        </>
      ) : null}
      {canClear && data.suspectedAtEpochMillis !== null ? (
        <div className="actions">
          <button type="button" className="button" disabled={clear.isPending} onClick={() => clear.mutate()}>
            {clear.isPending ? 'Clearing…' : 'Clear the sharing mark'}
          </button>
          <span className="muted">A new window starts; the alert fires again if the key keeps being shared.</span>
        </div>
      ) : null}
      <ErrorMessage error={clear.error} />
    </section>
  );
}
