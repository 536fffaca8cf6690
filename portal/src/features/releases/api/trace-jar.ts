// Tracing a leaked jar: POST /releases/trace with the jar as the body answers the download
// it came from, or 404 "Not a stamped download". Nothing is stored, so nothing is refreshed.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { sendFile, type UploadProgress } from '../../../lib/upload';
import type { TraceResult } from '../../../types/api';

export function useTraceJar() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (jar: File) => {
      setProgress({ sent: 0, total: jar.size });
      return sendFile<TraceResult>({ method: 'POST', path: '/releases/trace', file: jar, onProgress: setProgress });
    },
  });
  return { mutation, progress };
}
