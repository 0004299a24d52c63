import type { TourKey, ToursSeenResponse } from '@bulwark/domain';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { tourCompletions } from './tables.js';

/** The tours `userId` has seen, oldest first (the transaction's organisation only: row-level security). */
export async function toursSeen(tx: Tx, userId: string): Promise<ToursSeenResponse> {
  const rows = await tx
    .select({ tourKey: tourCompletions.tourKey, completedAt: tourCompletions.completedAt })
    .from(tourCompletions)
    .where(eq(tourCompletions.userId, userId))
    .orderBy(asc(tourCompletions.completedAt), asc(tourCompletions.tourKey));
  return { tours: rows.map((r) => ({ tour_key: r.tourKey, completed_at: r.completedAt.toISOString() })) };
}

/** Records a tour as seen; true when this was the first time (seeing it again keeps the first date). */
export async function markTourSeen(tx: Tx, userId: string, tourKey: TourKey): Promise<boolean> {
  const inserted = await tx
    .insert(tourCompletions)
    .values({ userId, tourKey })
    .onConflictDoNothing()
    .returning({ tourKey: tourCompletions.tourKey });
  return inserted.length > 0;
}
