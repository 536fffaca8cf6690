// A release at a glance: version, channel, status, dates and its file (whole sha256 with
// a copy button, the plugin's main class).
import { CopyButton } from '../../../components/copy-button';
import { formatDateTime } from '../../../lib/format';
import type { Release } from '../../../types/api';
import { formatBytes } from '../release-rules';
import { ReleaseStatusBadge } from './release-status-badge';

export function ReleaseSummary({ release }: { release: Release }) {
  const file = release.file;
  return (
    <section className="card">
      <dl className="facts">
        <dt>Version</dt>
        <dd>{release.version}</dd>
        <dt>Channel</dt>
        <dd>{release.channel}</dd>
        <dt>Status</dt>
        <dd>
          <ReleaseStatusBadge status={release.status} />
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(release.createdAtEpochMillis)}</dd>
        <dt>Published</dt>
        <dd>{release.publishedAtEpochMillis === null ? <span className="muted">Not yet</span> : formatDateTime(release.publishedAtEpochMillis)}</dd>
        <dt>File</dt>
        <dd data-testid="release-file-name">{file ? `${file.name} (${formatBytes(file.size)})` : <span className="muted">No file yet</span>}</dd>
        {file ? (
          <>
            <dt>SHA-256</dt>
            <dd className="sha256">
              <code data-testid="release-sha256">{file.sha256}</code> <CopyButton text={file.sha256} label="Copy SHA-256" />
            </dd>
            <dt>Main class</dt>
            <dd>{file.mainClass ? <code>{file.mainClass}</code> : <span className="muted">None (not a plugin jar)</span>}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
