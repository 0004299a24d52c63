import type { DownloadedFile } from '../api/http.js';
import { useServices } from '../app/services.js';

/** Hands a downloaded file to the browser as a normal download. */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `download(path, query)`: fetch a file with the session's headers and save it. */
export function useDownload() {
  const { http } = useServices();
  return async (path: string, query?: Record<string, string>) => {
    const file = await http.download(path, query ? { query } : {});
    if (file) saveFile(file);
  };
}

/** A multipart body with the file under `file` (what the server's readUpload expects) and text fields. */
export function uploadForm(file: File, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  return form;
}
