import { Alert, Button, Group, Stack, TagsInput, Text } from '@mantine/core';
import { allowedEmailDomainsSchema } from '@sundial/core';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { done } from '../../../components/notify';
import { useSetAllowedEmailDomains, useWorkspaceDetail } from '../api';

const text = {
  label: 'Allowed e-mail domains',
  description: 'Only addresses at these domains can join by invite, SSO or SCIM. Leave empty to allow any address.',
  placeholder: 'example.com (Enter to add)',
  anyAddress: 'Any e-mail address may join this workspace.',
  loadFailed: 'The allowed e-mail domains could not be loaded. Reload the page to try again.',
  save: 'Save domains',
  saved: 'Allowed e-mail domains saved.',
};

/** The first problem of a list the core schema (the API's own) refuses, else null. */
function problemOf(domains: string[]): string | null {
  const result = allowedEmailDomainsSchema.safeParse(domains);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** The workspace's allowed e-mail domains (DECISIONS.md), for owners and admins. */
export function AllowedEmailDomainsSetting({ workspaceId }: { workspaceId: string }) {
  const detail = useWorkspaceDetail(workspaceId);
  const save = useSetAllowedEmailDomains(workspaceId);
  const stored = detail.data?.allowedEmailDomains;
  const [domains, setDomains] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (stored) setDomains(stored);
  }, [stored]);

  if (detail.isError) return <Alert color="red">{text.loadFailed}</Alert>;
  const changed = stored !== undefined && domains.join() !== stored.join();

  const handleSave = () => {
    const problem = problemOf(domains);
    setError(problem);
    if (problem) return;
    save.mutate(domains, {
      onSuccess: () => done(text.saved),
      onError: (err) => {
        const { message, fields } = parseApiError(err);
        setError(Object.values(fields)[0] ?? message);
      },
    });
  };

  return (
    <Stack gap={6}>
      <Group align="flex-end" wrap="nowrap">
        <TagsInput
          label={text.label}
          description={text.description}
          placeholder={text.placeholder}
          value={domains}
          onChange={(next) => {
            setDomains(next);
            setError(null);
          }}
          splitChars={[',', ' ', ';']}
          disabled={detail.isLoading || save.isPending}
          error={error}
          clearable
          style={{ flex: 1, minWidth: 180 }}
        />
        <Button variant="light" onClick={handleSave} disabled={!changed} loading={save.isPending}>
          {text.save}
        </Button>
      </Group>
      {stored?.length === 0 && domains.length === 0 && (
        <Text size="xs" c="dimmed">
          {text.anyAddress}
        </Text>
      )}
    </Stack>
  );
}
