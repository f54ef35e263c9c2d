import { Text } from '@mantine/core';
import { type TimeEntryView, workSeconds } from '@sundial/core';
import { useEffect, useState } from 'react';
import { useReportFormat } from '../../../components/report-format';

/** The current time, renewed every second while the component is shown. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(now, Date.now());
}

/** A running entry's work so far (breaks left out), ticking every second. */
export function RunningDuration({ entry, now }: { entry: TimeEntryView; now: number }) {
  const { duration } = useReportFormat();
  return (
    <Text span size="sm" ff="monospace" data-testid="running-duration">
      {duration(workSeconds(entry, now))}
    </Text>
  );
}
