// A draft's file: dropped or picked, sent with a progress bar, then its sha256 shown by
// the page. A refused file (413 too large, 400 not a readable jar, 409 no longer a draft)
// is said plainly and another may be tried.
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { ErrorMessage, Notice } from '../../../components/status';
import type { Release } from '../../../types/api';
import { useUploadReleaseFile } from '../api/upload-release-file';
import { FileDropZone } from './file-drop-zone';
import { UploadProgress } from './upload-progress';

function refusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 413) return `Too large: ${error.message}`;
  if (error.status === 400) return `Not accepted: ${error.message}`;
  return null;
}

export function ReleaseFileUpload({ release }: { release: Release }) {
  const { mutation, progress, cancel } = useUploadReleaseFile(release.id);
  const [name, setName] = useState('');
  const cancelled = mutation.error instanceof Error && mutation.error.name === 'AbortError';
  const refused = refusal(mutation.error);

  return (
    <section className="card" aria-labelledby="release-file-heading">
      <h2 id="release-file-heading">{release.file ? 'Replace the file' : 'Upload the file'}</h2>
      <FileDropZone
        label="Choose a file"
        hint={
          <>
            Drop the plugin jar (or any file) here. A <code>.jar</code> must be a readable zip; its <code>main</code> class is read from{' '}
            <code>plugin.yml</code>.
          </>
        }
        disabled={mutation.isPending}
        onFile={(file) => {
          setName(file.name);
          mutation.mutate(file);
        }}
      />
      {progress && (mutation.isPending || mutation.isSuccess) ? <UploadProgress name={name} progress={progress} onCancel={mutation.isPending ? cancel : undefined} /> : null}
      {mutation.isSuccess ? <Notice tone="success">Uploaded {name}.</Notice> : null}
      {cancelled ? <Notice>Upload of {name} cancelled.</Notice> : null}
      {refused ? (
        <div className="alert alert-error" role="alert" data-testid="upload-error">
          <strong>{name}</strong> was not uploaded. {refused}
        </div>
      ) : cancelled ? null : (
        <ErrorMessage error={mutation.error} title="Not uploaded:" />
      )}
    </section>
  );
}
