import { ERROR_STATUS, type ErrorCode } from '@bulwark/domain';

/**
 * The one error type services throw. `code` is stable (clients branch on it); the text is translated
 * at the edge from `errors.<code>` or from `messageKey`. `fields` maps field names to i18n keys;
 * `vars` fill their `{{placeholders}}`; `extra` adds members to the error body (an import's rows).
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: {
      fields?: Record<string, string>;
      messageKey?: string;
      vars?: Record<string, string | number>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = () => new AppError('not_found');
export const forbidden = () => new AppError('forbidden');
