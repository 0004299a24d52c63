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

/**
 * Saves the stored file behind a link an answer carried (`url` of an attachment: `/api/files/:id`).
 * Files are served only with the session's headers, so the link is fetched, not followed.
 */
export function useSaveLinkedFile() {
  const { http } = useServices();
  return async (url: string) => {
    const file = await http.download(url);
    if (file) saveFile(file);
  };
}
