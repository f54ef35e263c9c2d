import { Group, Paper, Select, TextInput } from '@mantine/core';
import { DATE_PRESET_LABELS, type DatePreset, dayKey, resolvePreset, WEEK_STARTS, type WeekStart } from '@sundial/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useWorkspace } from '../../../api/session';
import { t } from '../texts';

const PRESETS: DatePreset[] = ['thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'custom'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The days a Computer time page reads (this week unless the URL says ?preset=, or ?from= and ?to=
 * for a custom range), and a setter of the page's URL parameters.
 */
export function useRangeParams() {
  const { me } = useWorkspace();
  const [params, setParams] = useSearchParams();
  const weekStart: WeekStart = (WEEK_STARTS as readonly string[]).includes(me.user.weekStart)
    ? (me.user.weekStart as WeekStart)
    : 'monday';
  const today = dayKey(Date.now(), me.user.timeZone);
  const presetParam = params.get('preset') as DatePreset | null;
  const preset: DatePreset = presetParam && PRESETS.includes(presetParam) ? presetParam : 'thisWeek';
  const custom = {
    from: DAY.test(params.get('from') ?? '') ? (params.get('from') as string) : today,
    to: DAY.test(params.get('to') ?? '') ? (params.get('to') as string) : today,
  };
  const range = resolvePreset(preset, today, weekStart, custom);
  const setParam = (patch: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(patch)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  return { params, preset, range, setParam };
}

/** The page's filters: the range's preset, its first and last days when custom, then the page's own. */
export function RangeFilters(props: {
  preset: DatePreset;
  range: { from: string; to: string };
  setParam: (patch: Record<string, string | null>) => void;
  children?: ReactNode;
}) {
  const { preset, range, setParam } = props;
  const a = t.activities;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Filters">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={a.range}
          data={PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] }))}
          value={preset}
          onChange={(value) =>
            setParam(
              value === 'custom'
                ? { preset: value, from: range.from, to: range.to }
                : { preset: value === 'thisWeek' ? null : value, from: null, to: null },
            )
          }
          allowDeselect={false}
          w={160}
        />
        {preset === 'custom' && (
          <>
            <TextInput
              type="date"
              label={a.from}
              value={range.from}
              onChange={(e) => e.currentTarget.value && setParam({ from: e.currentTarget.value })}
              w={160}
            />
            <TextInput
              type="date"
              label={a.to}
              value={range.to}
              onChange={(e) => e.currentTarget.value && setParam({ to: e.currentTarget.value })}
              w={160}
            />
          </>
        )}
        {props.children}
      </Group>
    </Paper>
  );
}
