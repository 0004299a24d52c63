import { FAILURE_RESET_WINDOW_MS, FAILURE_THRESHOLD } from '@bulwark/domain';

/**
 * Spec 000 §8: three consecutive failures end the session; a success, or the window passing since
 * the first failure of the streak, starts counting again. A failure is a network failure or a 5xx
 * answer only (DECISIONS.md): the caller never counts a 4xx, which is the server answering.
 */
export function createFailureCounter(now: () => number, threshold = FAILURE_THRESHOLD, windowMs = FAILURE_RESET_WINDOW_MS) {
  let count = 0;
  let streakStart = 0;
  return {
    /** Returns true when this failure reaches the threshold (and starts a fresh count). */
    fail(): boolean {
      const at = now();
      if (count > 0 && at - streakStart >= windowMs) count = 0;
      if (count === 0) streakStart = at;
      count += 1;
      if (count >= threshold) {
        count = 0;
        return true;
      }
      return false;
    },
    succeed(): void {
      count = 0;
    },
    get count(): number {
      return count;
    },
  };
}
