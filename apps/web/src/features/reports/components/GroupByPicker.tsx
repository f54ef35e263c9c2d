import { Select } from '@mantine/core';
import { REPORT_DIMENSIONS, type ReportDimension } from '@sundial/core';
import { t } from '../texts';

/** Up to three nested group-by dimensions; a level can be cleared (and the ones below it go too). */
export function GroupByPicker({
  value,
  onChange,
}: {
  value: ReportDimension[];
  onChange: (groupBy: ReportDimension[]) => void;
}) {
  const levels = [0, 1, 2].filter((i) => i <= value.length && i < 3);
  return (
    <>
      {levels.map((i) => {
        const taken = value.slice(0, i);
        const data = REPORT_DIMENSIONS.filter((d) => !taken.includes(d)).map((d) => ({
          value: d,
          label: t.dimensions[d],
        }));
        return (
          <Select
            key={i}
            label={i === 0 ? t.groupBy : t.thenBy}
            data={i === 0 ? data : [{ value: '', label: t.none }, ...data]}
            value={value[i] ?? ''}
            allowDeselect={false}
            onChange={(next) => {
              const head = value.slice(0, i);
              onChange(
                next ? [...head, next as ReportDimension, ...value.slice(i + 1).filter((d) => d !== next)] : head,
              );
            }}
            w={140}
          />
        );
      })}
    </>
  );
}
