// "Download license file": issues a signed file (POST /licenses/{id}/license-file) and saves it.
import { useMutation } from '@tanstack/react-query';
import { ErrorMessage } from '../../../components/status';
import { api } from '../../../lib/api-client';
import type { LicenseFile } from '../../../types/api';

function saveAs(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'application/jwt' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function LicenseFileButton({ licenseId }: { licenseId: string }) {
  const issue = useMutation({
    mutationFn: () => api.post<LicenseFile>(`/licenses/${encodeURIComponent(licenseId)}/license-file`),
    onSuccess: (file) => saveAs(`${licenseId}.lic`, file.licenseFile),
  });
  return (
    <>
      <button type="button" className="button" onClick={() => issue.mutate()} disabled={issue.isPending}>
        {issue.isPending ? 'Issuing…' : 'Download license file'}
      </button>
      {issue.error ? <ErrorMessage error={issue.error} title="No license file:" /> : null}
    </>
  );
}
