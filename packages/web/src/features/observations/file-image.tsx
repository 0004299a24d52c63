import { Image, type ImageProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useServices } from '../../app/services.js';

/**
 * A stored file's address as the browser can show it. Files are served only with the session's headers,
 * which an <img src> does not send, so the file is fetched and shown through a blob URL. A local
 * `blob:` address (a photo still on its way) is used as it is.
 */
export function useFileUrl(url: string | null | undefined): string | null {
  const { http } = useServices();
  const local = url?.startsWith('blob:') ? url : null;
  const [fetched, setFetched] = useState<{ from: string; src: string } | null>(null);
  useEffect(() => {
    if (!url || url.startsWith('blob:')) return;
    let made: string | null = null;
    let live = true;
    http.download(url, { notify: false })
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
  return local ?? (fetched && fetched.from === url ? fetched.src : null);
}

/** An image of a stored file (or of a local blob), with nothing shown until it has arrived. */
export function FileImage({ url, alt, ...props }: Omit<ImageProps, 'src'> & { url: string; alt: string }) {
  const src = useFileUrl(url);
  return src ? <Image src={src} alt={alt} {...props} /> : null;
}
