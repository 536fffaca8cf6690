// Uploading a draft's file (PUT /releases/{id}/file, the raw file with X-File-Name) with
// its progress, and cancelling it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { invalidate, keys } from '../../../lib/query-keys';
import { headerSafe, sendFile, type UploadProgress } from '../../../lib/upload';
import type { Release } from '../../../types/api';
import { releasePath } from './releases';

export function useUploadReleaseFile(id: string) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      controller.current = new AbortController();
      setProgress({ sent: 0, total: file.size });
      return sendFile<Release>({
        method: 'PUT',
        path: `${releasePath(id)}/file`,
        file,
        headers: { 'x-file-name': headerSafe(file.name) },
        onProgress: setProgress,
        signal: controller.current.signal,
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData([...keys.releases, 'detail', id], saved);
      return invalidate(queryClient, keys.releases);
    },
  });
  return { mutation, progress, cancel: () => controller.current?.abort() };
}
