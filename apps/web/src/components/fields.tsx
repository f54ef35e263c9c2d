import { PasswordInput, TextInput } from '@mantine/core';

interface FieldProps {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  /** A message, or true to mark the field when the message is shown elsewhere. */
  error?: string | boolean;
  required?: boolean;
}

const PASSWORD_HINT = 'At least 9 characters, with a number and a special character.';

export function EmailField({ label = 'Email', value, onChange, error, required = true }: FieldProps) {
  return (
    <TextInput
      label={label}
      type="email"
      autoComplete="email"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error || undefined}
      required={required}
    />
  );
}

export function NewPasswordField({ label = 'Password', value, onChange, error, required = true }: FieldProps) {
  return (
    <PasswordInput
      label={label}
      autoComplete="new-password"
      description={PASSWORD_HINT}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error || undefined}
      required={required}
    />
  );
}
