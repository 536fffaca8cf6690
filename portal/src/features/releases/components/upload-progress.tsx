// How far a file upload has come: a progress bar with the bytes and percent, and Cancel.
import type { UploadProgress as Progress } from '../../../lib/upload';
import { formatBytes, percentSent } from '../release-rules';

export function UploadProgress({ name, progress, onCancel }: { name: string; progress: Progress; onCancel?: () => void }) {
  const percent = percentSent(progress.sent, progress.total);
  return (
    <div className="upload-progress" data-testid="upload-progress">
      <label>
        <span>
          Sending <strong>{name}</strong>: <span data-testid="upload-percent">{percent}%</span>{' '}
          <span className="muted">
            ({formatBytes(Math.min(progress.sent, progress.total))} of {formatBytes(progress.total)})
          </span>
        </span>
        <progress max={100} value={percent}>
          {percent}%
        </progress>
      </label>
      {onCancel && percent < 100 ? (
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
