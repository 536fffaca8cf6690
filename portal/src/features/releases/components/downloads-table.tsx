// A release's licensed downloads, newest first, 20 a page: when, the license (linked when
// the account may open it), address, HWID and the sha256 of the bytes sent.
import { useState } from 'react';
import { Link } from 'react-router';
import { Pagination } from '../../../components/pagination';
import { QueryState } from '../../../components/status';
import { Table } from '../../../components/table';
import { formatDateTime } from '../../../lib/format';
import { pageQuery } from '../../../lib/pagination';
import { useDownloads } from '../api/downloads';
import { shortSha } from '../release-rules';

const PAGE_SIZE = 20;

export function DownloadsTable({ releaseId, linkLicenses }: { releaseId: string; linkLicenses: boolean }) {
  const [page, setPage] = useState(0);
  const downloads = useDownloads(releaseId, pageQuery(page, PAGE_SIZE));
  return (
    <section className="card" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Downloads</h2>
      <QueryState query={downloads} empty={page === 0 ? <p className="muted">No licensed downloads yet.</p> : undefined}>
        {(data) => (
          <>
            <Table
              caption="Downloads, newest first"
              head={
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">License</th>
                  <th scope="col">IP</th>
                  <th scope="col">HWID</th>
                  <th scope="col">SHA-256 sent</th>
                </tr>
              }
            >
              {data.records.map((download) => (
                <tr key={download.id} data-testid="download-row">
                  <td className="nowrap">{formatDateTime(download.atEpochMillis)}</td>
                  <td className="download-license">
                    {linkLicenses ? <Link to={`/licenses/${encodeURIComponent(download.licenseId)}`}>{download.licenseId}</Link> : <code>{download.licenseId}</code>}
                  </td>
                  <td>
                    <code>{download.ip}</code>
                  </td>
                  <td>{download.hwid === null ? <span className="muted">None</span> : <code>{download.hwid}</code>}</td>
                  <td>
                    <code title={download.sha256}>{shortSha(download.sha256)}…</code>
                  </td>
                </tr>
              ))}
            </Table>
            <Pagination page={page} pageSize={PAGE_SIZE} shown={data.records.length} total={data.total} onPage={setPage} />
          </>
        )}
      </QueryState>
    </section>
  );
}
