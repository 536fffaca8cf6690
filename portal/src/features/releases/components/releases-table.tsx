// A product's releases, newest first: version (linking to the release), channel, status,
// publication, file and how many licensed downloads each has had.
import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import type { Release } from '../../../types/api';
import { useDownloadCount } from '../api/downloads';
import { ReleaseFileCell } from './release-file-cell';
import { ReleaseStatusBadge } from './release-status-badge';

function DownloadCount({ releaseId }: { releaseId: string }) {
  const count = useDownloadCount(releaseId);
  if (count.isPending) return <span className="muted">…</span>;
  if (count.error) return <span className="muted" title="Could not be read">?</span>;
  return <span data-testid="download-count">{count.data}</span>;
}

export function ReleasesTable({ releases, releasePath }: { releases: Release[]; releasePath: (release: Release) => string }) {
  return (
    <Table
      caption="Releases, newest first"
      head={
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Channel</th>
          <th scope="col">Status</th>
          <th scope="col">Published</th>
          <th scope="col">File</th>
          <th scope="col" className="number">
            Downloads
          </th>
        </tr>
      }
    >
      {releases.map((release) => (
        <tr key={release.id} data-testid="release-row">
          <td>
            <Link to={releasePath(release)}>{release.version}</Link>
          </td>
          <td>{release.channel}</td>
          <td>
            <ReleaseStatusBadge status={release.status} />
          </td>
          <td className="nowrap">{release.publishedAtEpochMillis === null ? <span className="muted">Not yet</span> : <Time at={release.publishedAtEpochMillis} />}</td>
          <td>
            <ReleaseFileCell file={release.file} />
          </td>
          <td className="number">
            <DownloadCount releaseId={release.id} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
