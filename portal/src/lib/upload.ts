// A file sent as a raw request body with upload progress: fetch() cannot report how much
// of a body has been sent, XMLHttpRequest can. Same rules as api-client: the session's
// token, `{"error"}` bodies as ApiError, a 401 ends the session.
import { ApiError, errorMessage, fallbackMessage } from './api-client';
import { session } from './session';

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface FileRequest {
  method: 'PUT' | 'POST';
  path: string;
  file: Blob;
  headers?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Sent when the upload was cancelled (an AbortError, as fetch throws). */
export class UploadCancelled extends Error {
  constructor() {
    super('Upload cancelled.');
    this.name = 'AbortError';
  }
}

/** The messages of a refused file, in plain words when the API gives none (a proxy's 413 has no JSON). */
const FILE_MESSAGES: Record<number, string> = {
  413: 'The file is larger than the server accepts.',
};

/**
 * A header value XMLHttpRequest accepts (Latin-1 only: setRequestHeader throws on other
 * characters), so a file name in another script still uploads, with `_` in their place.
 */
export const headerSafe = (value: string) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '_');

/** Sends `file` as the body; resolves with the parsed JSON answer of a 2xx. */
export function sendFile<T>({ method, path, file, headers = {}, onProgress, signal }: FileRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadCancelled());
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    const token = session.token();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);

    xhr.upload.onprogress = (event) => onProgress?.({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      let body: unknown = undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.({ sent: file.size, total: file.size });
        return resolve(body as T);
      }
      if (xhr.status === 401 && token) session.end('expired');
      const fromApi = (body as { error?: unknown } | undefined)?.error;
      const message = typeof fromApi === 'string' ? errorMessage(xhr.status, body) : (FILE_MESSAGES[xhr.status] ?? fallbackMessage(xhr.status));
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new ApiError(0, fallbackMessage(0)));
    xhr.onabort = () => reject(new UploadCancelled());
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
