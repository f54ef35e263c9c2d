import { Code, List, Stack, Text } from '@mantine/core';
import { SIGNATURE_NOTE } from '../texts';

/** How a receiver checks that a request came from Sundial: the `Sundial-Signature` header. */
export function SignatureNote() {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Verifying deliveries
      </Text>
      <Text size="sm">Each request carries a signature header:</Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {SIGNATURE_NOTE.header}
      </Code>
      <List size="sm" type="ordered" spacing={2}>
        {SIGNATURE_NOTE.steps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List>
    </Stack>
  );
}
