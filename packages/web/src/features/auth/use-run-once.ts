import { useEffect, useRef } from 'react';

/** Runs a side effect once per mount, even when development mode mounts effects twice (sign-out must not run twice). */
export function useRunOnce(effect: () => void): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    effect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately once per mount
  }, []);
}
