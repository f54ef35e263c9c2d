import { useEffect, useState } from 'react';

/**
 * The current time, renewed every `intervalMs` while `active` (a running timer's figures tick
 * every second; without one nothing re-renders).
 */
export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}
