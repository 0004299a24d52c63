import { useEffect, useState } from 'react';
import { useServices } from '../app/services.js';

/**
 * A stored file's address (GET /api/files/:id …) as the browser can show it. Files are served only with
 * the session's headers, which an <img src> does not send, so the file is fetched through the HTTP client
 * and shown through an object URL, revoked when the address changes or the component goes away.
 * A local `blob:` address (a photo still on its way) is used as it is; no address gives null.
 * Null is also what a caller sees while the file loads or when it could not be fetched.
 */
export function useStoredFileUrl(url: string | null | undefined): string | null {
  const { http } = useServices();
  const local = url?.startsWith('blob:') ? url : null;
  const [fetched, setFetched] = useState<{ from: string; src: string } | null>(null);
  useEffect(() => {
    if (!url || url.startsWith('blob:')) return;
    let made: string | null = null;
    let live = true;
    http
      .download(url, { notify: false })
      .then((f) => {
        if (!live || !f) return;
        made = URL.createObjectURL(f.blob);
        setFetched({ from: url, src: made });
      })
      .catch(() => setFetched(null));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [http, url]);
  // Only the object URL of the current address: an earlier one is already revoked.
  return local ?? (url && fetched?.from === url ? fetched.src : null);
}
