import { describe, expect, it } from 'vitest';
import { monthGrid, monthsBetween, shiftMonth } from './months.js';

describe('audit months', () => {
  it('moves across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });
  it('lays a month out in weeks from Monday', () => {
    // 1 June 2026 is a Monday; 30 days make five weeks.
    const weeks = monthGrid('2026-06');
    expect(weeks[0]![0]).toBe('2026-06-01');
    expect(weeks).toHaveLength(5);
    // 1 November 2026 is a Sunday: six pads first.
    expect(monthGrid('2026-11')[0]!.slice(0, 7)).toEqual([null, null, null, null, null, null, '2026-11-01']);
  });
  it('lists the months of a range', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsBetween('2026-02', '2025-11')).toEqual([]);
  });
});
