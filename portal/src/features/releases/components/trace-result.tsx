// The download a leaked jar came from: license and customer (linked where the account may
// open them), the release, when, from which address and machine, and how it was found.
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import type { TraceResult } from '../../../types/api';

const FOUND_BY: Record<TraceResult['foundBy'], string> = {
  entry: 'by its signed entry META-INF/LICENSING-DOWNLOAD.jws',
  constant: 'by a value stamped into its classes (the signed entry was removed)',
};

export interface TraceLinks {
  license: boolean;
  customer: boolean;
  release: boolean;
}

export function TraceResultCard({ result, links }: { result: TraceResult; links: TraceLinks }) {
  const { download, release } = result;
  return (
    <section className="card" data-testid="trace-result" aria-labelledby="trace-result-heading">
      <h2 id="trace-result-heading">Download found</h2>
      <p className="muted">Found {FOUND_BY[result.foundBy]}.</p>
      <dl className="facts">
        <dt>License</dt>
        <dd className="download-license">
          {links.license ? <Link to={`/licenses/${encodeURIComponent(download.licenseId)}`}>{download.licenseId}</Link> : <code>{download.licenseId}</code>}
        </dd>
        <dt>Customer</dt>
        <dd>
          {result.customerId === null ? (
            <span className="muted">None</span>
          ) : links.customer ? (
            <Link to={`/customers/${encodeURIComponent(result.customerId)}`}>{result.customerId}</Link>
          ) : (
            <code>{result.customerId}</code>
          )}
        </dd>
        <dt>Release</dt>
        <dd>
          {links.release ? (
            <Link to={`/products/${encodeURIComponent(release.productId)}/releases/${encodeURIComponent(release.id)}`}>{release.version}</Link>
          ) : (
            release.version
          )}{' '}
          <span className="muted">({release.channel})</span>
        </dd>
        <dt>Downloaded</dt>
        <dd>{formatDateTime(download.atEpochMillis)}</dd>
        <dt>IP</dt>
        <dd>
          <code>{download.ip}</code>
        </dd>
        <dt>HWID</dt>
        <dd>{download.hwid === null ? <span className="muted">None given</span> : <code>{download.hwid}</code>}</dd>
        <dt>Download id</dt>
        <dd>
          <code>{download.id}</code>
        </dd>
        <dt>SHA-256 sent</dt>
        <dd className="sha256">
          <code>{download.sha256}</code>
        </dd>
      </dl>
    </section>
  );
}
