import { useCallback, useRef, useState } from 'react';

/**
 * Runs an async action at most once at a time. The ref is set synchronously, so a double click
 * (two events before React re-renders the disabled button) still fires one request.
 */
export function useSingleFlight<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setPending(true);
      try {
        await action(...args);
      } finally {
        inFlight.current = false;
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending };
}
