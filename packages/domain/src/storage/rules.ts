/**
 * What each kind of upload accepts (spec 001 §5, §9). Types are checked on the server by content,
 * never by the name or the browser's label; the web uses the same table to refuse early.
 */
export const FILE_RULES = {
  /** Profile or worker photo: JPEG or PNG under 500 KB. */
  photo: { maxBytes: 500 * 1024, types: ['image/jpeg', 'image/png'] },
  /** Organisation logo: JPEG, PNG or GIF under 10 MB. */
  logo: { maxBytes: 10 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/gif'] },
  /** Audit images (JPG, PNG, GIF) under 1 MB. */
  auditImage: { maxBytes: 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/gif'] },
  /**
   * Audit documents (PPT, DOC, XLS) under 1 MB: the old binary formats (one container type by content)
   * and their newer Office Open XML forms.
   */
  auditDocument: {
    maxBytes: 1024 * 1024,
    types: [
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/x-cfb',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
  },
  /** Record attachments (observations, incidents, actions): images, PDF and office documents, 10 MB. */
  attachment: {
    maxBytes: 10 * 1024 * 1024,
    types: [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/x-cfb',
      'video/mp4',
    ],
  },
  /** An Excel workbook to import (users, observations); read, never stored. */
  workbook: { maxBytes: 5 * 1024 * 1024, types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/zip'] },
} as const satisfies Record<string, { maxBytes: number; types: readonly string[] }>;

export type FilePurpose = keyof typeof FILE_RULES;

/** Human size for messages: 512000 -> "500 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
