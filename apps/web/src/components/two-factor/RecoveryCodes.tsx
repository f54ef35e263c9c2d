import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';

/** Recovery codes, shown once: copy them or download them as a text file. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Sundial recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'sundial-recovery-codes.txt' });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="yellow" title="Save your recovery codes now">
        Each code signs you in once if you lose your phone. They are shown only this time.
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
        {codes.map((code) => (
          <Text key={code} ff="monospace" size="sm">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
    </Stack>
  );
}
