import { useCallback, useEffect, useRef, useState } from 'react';

export interface TimedMessage {
  kind: 'success' | 'error';
  text: string;
  detail?: string;
}

/** A message that disappears `durationMs` after it was last shown. */
export function useTimedMessage(durationMs: number): [TimedMessage | null, (message: TimedMessage) => void] {
  const [shown, setShown] = useState<{ message: TimedMessage; serial: number } | null>(null);
  const serial = useRef(0);

  useEffect(() => {
    if (!shown) return undefined;
    const timer = window.setTimeout(() => setShown(null), durationMs);
    return () => window.clearTimeout(timer);
  }, [shown, durationMs]);

  const show = useCallback((message: TimedMessage) => {
    serial.current += 1;
    setShown({ message, serial: serial.current });
  }, []);

  return [shown?.message ?? null, show];
}
