/**
 * IANA time zones as the running engine knows them (Intl.supportedValuesOf), plus UTC, which engines
 * leave out of that list although every one of them accepts it.
 */
let cached: readonly string[] | null = null;

export function siteTimeZones(): readonly string[] {
  if (!cached) {
    const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    cached = Object.freeze([...new Set(['UTC', ...list])].sort());
  }
  return cached;
}

/**
 * True for a zone of the list, or for an alias the engine resolves to one (Asia/Kolkata and
 * Asia/Calcutta are the same zone; the browser and the server may name it differently). Offsets such
 * as "+05:30" and unknown names are refused.
 */
export function isSiteTimeZone(value: string): boolean {
  const zones = siteTimeZones();
  if (zones.includes(value)) return true;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    return zones.includes(resolved);
  } catch {
    return false;
  }
}
