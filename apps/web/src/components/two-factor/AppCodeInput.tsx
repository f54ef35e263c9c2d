import { TextInput } from '@mantine/core';

/** The 6-digit code of an authenticator app (phones offer it from the SMS/OTP keyboard). */
export function AppCodeInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label?: string;
}) {
  return (
    <TextInput
      label={props.label ?? 'Code from the app'}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      error={props.error}
      w={210}
    />
  );
}
