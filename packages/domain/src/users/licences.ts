/**
 * Modules a per-user licence exists for (spec 001 §6 "licences per user per module"). A file of its own so
 * the sign-in schemas can name them without the user schemas (and libphonenumber) in the sign-in page.
 */
export const LICENCE_MODULES = ['observations', 'incidents', 'permits', 'audits', 'hira', 'library', 'actions'] as const;
export type LicenceModule = (typeof LICENCE_MODULES)[number];
