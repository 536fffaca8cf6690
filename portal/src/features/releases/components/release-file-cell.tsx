// A release's file in a line: name, size and the start of its sha256 (whole on hover).
import type { ReleaseFile } from '../../../types/api';
import { formatBytes, shortSha } from '../release-rules';

export function ReleaseFileCell({ file }: { file: ReleaseFile | null }) {
  if (!file) return <span className="muted">No file yet</span>;
  return (
    <span className="release-file">
      <span className="release-file-name">{file.name}</span>{' '}
      <span className="muted nowrap">{formatBytes(file.size)}</span>{' '}
      <code className="nowrap" title={`sha256 ${file.sha256}`}>
        {shortSha(file.sha256)}…
      </code>
    </span>
  );
}
