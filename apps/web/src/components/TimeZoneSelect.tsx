import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';

/** A searchable picker of IANA time zones (the browser's list), with UTC and the current value always offered. */
export function TimeZoneSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & { value: string; onChange: (zone: string) => void }) {
  const zones = useMemo(() => [...new Set(['UTC', value, ...Intl.supportedValuesOf('timeZone')])], [value]);
  return (
    <Select {...props} data={zones} value={value} onChange={(v) => v && onChange(v)} searchable allowDeselect={false} />
  );
}
