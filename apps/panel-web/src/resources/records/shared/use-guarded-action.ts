import { useCallback, useRef, useState } from 'react';

/**
 * Runs an async action at most once at a time. The ref closes the gap a double click falls into:
 * React state (and react-query's isPending) update after the event, the ref at once.
 */
export function useGuardedAction<A extends unknown[], T>(
  action: (...args: A) => Promise<T>,
): [(...args: A) => Promise<T | undefined>, boolean] {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      if (running.current) return undefined;
      running.current = true;
      setPending(true);
      try {
        return await action(...args);
      } finally {
        running.current = false;
        setPending(false);
      }
    },
    [action],
  );
  return [run, pending];
}
