import type { Readable } from 'node:stream';
import { stripInvisible, type ListExportStarted } from '@bulwark/domain';

/**
 * Answers other than the endpoint's JSON: a handler returns one of these and the route helper sends it.
 * Keeping them values (not calls on the reply) keeps handlers free of Fastify.
 */
export class FileAnswer {
  constructor(
    readonly body: Buffer | Readable,
    readonly contentType: string,
    readonly fileName: string,
    readonly options: { disposition?: 'inline' | 'attachment'; cache?: string; size?: number } = {},
  ) {}
}

export class RedirectAnswer {
  constructor(
    readonly location: string,
    readonly status: 302 | 303 = 302,
  ) {}
}

/** A job the request started instead of answering at once (202), e.g. a large list export. */
export class StartedAnswer {
  constructor(readonly body: ListExportStarted) {}
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Content-Disposition with the name in both the plain (ASCII-safe) and the UTF-8 form (RFC 6266). The
 * UTF-8 form is decoded by the browser, so a right-to-left override or a zero-width character would
 * make the saved name read as another: they never leave (stripInvisible).
 */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName: string): string {
  const name = stripInvisible(fileName).trim() || 'file';
  const plain = name.replace(/[^\w.-]+/g, '_');
  return `${disposition}; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
