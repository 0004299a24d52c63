import { z } from 'zod';

/** Building blocks of the incident schemas: field texts are i18n keys (spec 001 §5). */

export const required = { message: 'validation.required' };
export const invalid = { message: 'validation.invalid' };
export const tooLong = { message: 'validation.tooLong' };

/** A missing value reads `missing` (default "required"); a value of the wrong kind reads "not valid". */
export const requiredOrInvalid =
  (missing = 'validation.required') =>
  (iss: { input?: unknown }) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? missing : 'validation.invalid';

export const requiredText = (max: number, missing = 'validation.required') =>
  z
    .string({ error: requiredOrInvalid(missing) })
    .trim()
    .min(1, { message: missing })
    .max(max, tooLong);

/** Empty text and null both mean "not given"; the value is then null. */
export const optionalText = (max: number) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.string(invalid).trim().max(max, tooLong).nullable().optional(),
    )
    .transform((v) => v ?? null);

/** Blank text and null both mean "not given". */
export const optionalUuid = z.preprocess((v) => (v === '' ? null : v), z.uuid(invalid).nullable().optional()).transform((v) => v ?? null);

/** An enum that may be left unset (null); blank text means unset too. */
export const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? null : v), z.enum(values, invalid).nullable().optional()).transform((v) => v ?? null);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** 'YYYY-MM-DD' naming a real calendar day. */
export function isCalendarDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && Number(m[1]) >= 1900;
}
export const dateText = (message = 'validation.invalid') =>
  z
    .string({ error: requiredOrInvalid(message) })
    .trim()
    .refine(isCalendarDate, { message });
export const optionalDate = (message = 'validation.invalid') =>
  z.preprocess((v) => (v === '' ? null : v), dateText(message).nullable().optional()).transform((v) => v ?? null);

/** A list of distinct values (duplicates read "not valid"). */
export const distinct = <T extends z.ZodType>(item: T, max: number, tooMany = 'validation.tooLong') =>
  z
    .array(item, invalid)
    .max(max, { message: tooMany })
    .refine((xs) => new Set(xs as unknown[]).size === xs.length, invalid);
