import { toApiError, type ApiError } from './api';

export interface Upload {
  /** The endpoint's address, with its query string. */
  url: string;
  body: Blob;
  token: string | null;
  language: 'es' | 'en';
  /** Called as the body goes up, with the share sent (0 to 1). */
  onProgress?: (share: number) => void;
}

/**
 * Sends a file to the API with XMLHttpRequest, the one browser API that reports an upload's
 * progress (fetch does not), for an RTK Query endpoint's `queryFn`: the answer and errors take
 * the same shape as every other endpoint's. The only place the client uses XMLHttpRequest.
 */
export function uploadWithProgress<T>({ url, body, token, language, onProgress }: Upload): Promise<{ data: T } | { error: ApiError }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', language);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown = xhr.responseText;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the status text speaks for it.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ data: data as T });
      else resolve({ error: toApiError({ status: xhr.status, data }) });
    };
    xhr.onerror = () => resolve({ error: { status: 'FETCH_ERROR' } });
    xhr.send(body);
  });
}
