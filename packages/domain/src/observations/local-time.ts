/**
 * Wall-clock times of a site. An observation is entered as the local date and time of its site
 * ('YYYY-MM-DDTHH:mm', what a datetime-local input gives) and checked against the site's own clock,
 * never the browser's or the server's. Pure functions on Intl; no I/O.
 */
export const LOCAL_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
export const LOCAL_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** 'YYYY-MM-DD' naming a real calendar day. */
export function isLocalDate(value: string): boolean {
  const m = LOCAL_DATE_PATTERN.exec(value);
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** 'YYYY-MM-DDTHH:mm' naming a real day and a time of 00:00..23:59. */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME_PATTERN.exec(value);
  if (!m) return false;
  return validDate(Number(m[1]), Number(m[2]), Number(m[3])) && Number(m[4]) <= 23 && Number(m[5]) <= 59;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

function partsIn(zone: string, at: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of formatterOf(zone).formatToParts(at)) {
    if (p.type in out) out[p.type as keyof typeof out] = Number(p.value);
  }
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The wall-clock time of `zone` at the instant `at`, as 'YYYY-MM-DDTHH:mm'. */
export function localDateTimeIn(zone: string, at: Date): string {
  const p = partsIn(zone, at);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** Today's date in `zone` as 'YYYY-MM-DD'. */
export function localDateIn(zone: string, at: Date): string {
  return localDateTimeIn(zone, at).slice(0, 10);
}

/**
 * True when the local time `local` of `zone` is later than the zone's clock at `now` (to the minute:
 * the current minute is not the future). The spec's "no future time" rule.
 */
export function isFutureInZone(local: string, zone: string, now: Date): boolean {
  return local > localDateTimeIn(zone, now);
}

/**
 * The instant a wall-clock time of `zone` names. A time inside a spring-forward gap (02:30 that never
 * happened) moves forward by the gap (03:30); in the autumn overlap the earlier instant is taken.
 */
export function localDateTimeToInstant(local: string, zone: string): Date {
  const m = LOCAL_DATE_TIME_PATTERN.exec(local);
  if (!m) throw new RangeError(`not a local date-time: ${local}`);
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  const offsetAt = (t: number) => {
    const p = partsIn(zone, new Date(t));
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t;
  };
  // Two passes settle the offset everywhere but in a gap, where the first guess is kept.
  const first = asUtc - offsetAt(asUtc);
  const second = asUtc - offsetAt(first);
  const earlier = Math.min(first, second);
  return new Date(localDateTimeIn(zone, new Date(earlier)) === local ? earlier : Math.max(first, second));
}
