import { Image, type ImageProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useStoredFileUrl } from './stored-files.js';

type StoredImageProps = Omit<ImageProps, 'src'> & {
  url: string;
  alt: string;
  /** Shown until the image has arrived (and instead of it if it cannot be fetched); nothing by default. */
  placeholder?: ReactNode;
};

/** An image of a stored file (or of a local blob). */
export function StoredImage({ url, alt, placeholder = null, ...props }: StoredImageProps) {
  const src = useStoredFileUrl(url);
  return src ? <Image src={src} alt={alt} {...props} /> : <>{placeholder}</>;
}
