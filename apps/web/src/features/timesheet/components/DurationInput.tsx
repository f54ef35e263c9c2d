import { TextInput } from '@mantine/core';
import { formatDuration, parseDuration } from '@sundial/core';
import { useEffect, useRef, useState } from 'react';
import { useDurationFormat } from '../../../api/session';
import { t } from '../texts';

/**
 * A duration typed as text ("2:30", "1.5h", "90m"); commits on Enter or leaving the field, and
 * shows it in the user's duration format. Empty commits 0 when `allowEmpty`. When the commit's
 * promise rejects (the change was not saved) the field goes back to the saved value.
 */
export function DurationInput(props: {
  seconds: number;
  onCommit: (seconds: number) => Promise<unknown>;
  label: string;
  allowEmpty?: boolean;
  showZeroAsEmpty?: boolean;
  disabled?: boolean;
  w?: number | string;
  size?: 'xs' | 'sm';
}) {
  const format = useDurationFormat();
  const shown = props.showZeroAsEmpty && props.seconds === 0 ? '' : formatDuration(props.seconds, format);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | undefined>();
  // Enter commits and then leaves the field; the blur must not send the same change again.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    setText(shown);
    sent.current = null;
  }, [shown]);

  const send = (seconds: number) =>
    Promise.resolve(props.onCommit(seconds)).catch(() => {
      setText(shown);
      sent.current = null;
    });

  const commit = () => {
    if (text.trim() === shown || text.trim() === sent.current) return;
    sent.current = text.trim();
    if (text.trim() === '' && props.allowEmpty) {
      setError(undefined);
      if (props.seconds !== 0) send(0);
      return;
    }
    const seconds = parseDuration(text);
    if (seconds === null) {
      setError(t.badDuration);
      return;
    }
    setError(undefined);
    setText(formatDuration(seconds, format));
    if (seconds !== props.seconds) send(seconds);
  };

  return (
    <TextInput
      aria-label={props.label}
      value={text}
      size={props.size ?? 'xs'}
      w={props.w ?? 80}
      disabled={props.disabled}
      error={error}
      title={error ?? t.cellHint}
      styles={{ input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums', paddingInline: 4 } }}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit();
          (e.currentTarget as HTMLInputElement).blur();
        }
        if (e.key === 'Escape') {
          setText(shown);
          setError(undefined);
        }
      }}
    />
  );
}
