// A release: its facts, the file (uploaded while a draft), notes, the status changes and
// Delete the API allows, its downloads per day and the list of its downloads.
import { useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { PageHeader } from '../../components/page-header';
import { ErrorMessage, Notice, QueryState } from '../../components/status';
import { useDeleteRelease, useRelease, useReleaseTransition, useUpdateReleaseNotes } from '../../features/releases/api/releases';
import { DownloadsTable } from '../../features/releases/components/downloads-table';
import { ReleaseActions } from '../../features/releases/components/release-actions';
import { ReleaseDownloadsChart } from '../../features/releases/components/release-downloads-chart';
import { ReleaseFileUpload } from '../../features/releases/components/release-file-upload';
import { ReleaseNotes } from '../../features/releases/components/release-notes';
import { ReleaseSummary } from '../../features/releases/components/release-summary';
import { mayChangeFile, mayDelete } from '../../features/releases/release-rules';
import { useCan } from '../../hooks/use-session';

export function ReleasePage() {
  const { id: productId = '', releaseId = '' } = useParams();
  const navigate = useNavigate();
  const release = useRelease(releaseId);
  const transition = useReleaseTransition(releaseId);
  const notes = useUpdateReleaseNotes(releaseId);
  const remove = useDeleteRelease();
  const canWrite = useCan('releases:write');
  const canOpenLicenses = useCan('licenses:read');
  const back = { to: `/products/${encodeURIComponent(productId)}/releases`, label: 'Releases' };

  return (
    <QueryState query={release}>
      {(data) => (
        <>
          <PageHeader
            title={`Release ${data.version}`}
            back={back}
            actions={
              canWrite ? (
                <>
                  <ReleaseActions release={data} transition={transition} />
                  {mayDelete(data) ? (
                    <DeleteButton
                      id={data.id}
                      what={`release ${data.version}`}
                      mutation={remove}
                      consequence="Its file and its download records are deleted with it."
                      onDeleted={() => navigate(back.to)}
                    />
                  ) : null}
                </>
              ) : null
            }
          />
          <ErrorMessage error={transition.error} title="Not changed:" />
          <ReleaseSummary release={data} />
          {canWrite && mayChangeFile(data) ? <ReleaseFileUpload release={data} /> : null}
          {canWrite && !mayChangeFile(data) ? (
            <Notice>The file of a published release cannot change: create a new version for a new file.</Notice>
          ) : null}
          <ReleaseNotes key={data.notes ?? ''} notes={data.notes} canWrite={canWrite} save={notes} />
          <ReleaseDownloadsChart releaseId={data.id} />
          <DownloadsTable releaseId={data.id} linkLicenses={canOpenLicenses} />
        </>
      )}
    </QueryState>
  );
}
