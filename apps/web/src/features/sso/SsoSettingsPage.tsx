import {
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { WorkspaceSsoView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { useWorkspace } from '../../api/session';
import { CopyField } from '../../components/CopyField';
import { ErrorPanel } from '../../components/ErrorPanel';
import { done, failed } from '../../components/notify';
import { UpgradePrompt } from '../../components/UpgradePrompt';

type Protocol = 'oidc' | 'saml';
const ROLES = ['admin', 'manager', 'member', 'guest'] as const;

/**
 * Workspace SSO (Pro, owners and admins): the identity provider (OpenID Connect or SAML 2.0), the
 * e-mail domains it serves (each verified by signing in through it with one's own address there),
 * "require SSO" and the role people join with.
 */
export function SsoSettingsPage() {
  const { workspaceId, can, hasFeature } = useWorkspace();
  const base = `/workspaces/${workspaceId}/sso`;
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['sso', workspaceId],
    queryFn: () => api<WorkspaceSsoView>('GET', base),
    enabled: can('workspace:update'),
  });
  const refresh = (view: WorkspaceSsoView) => queryClient.setQueryData(['sso', workspaceId], view);

  if (!can('workspace:update')) return <ErrorPanel message="Only owners and admins manage single sign-on." />;
  if (!hasFeature('sso')) return <UpgradePrompt feature="sso" />;
  if (settings.isPending) return <Loader m="xl" />;
  if (settings.isError) return <ErrorPanel onRetry={() => settings.refetch()} />;
  return (
    <Stack gap="lg" p="lg" maw={760}>
      <ProviderForm view={settings.data} base={base} onSaved={refresh} />
      <Paper withBorder p="lg">
        <Stack gap="xs">
          <CopyField label="Workspace ID" value={workspaceId} copy="Copy" copied="Copied" />
          <Text size="sm" c="dimmed">
            People may type it instead of their e-mail in "Log in with SSO" on the log-in page.
          </Text>
        </Stack>
      </Paper>
      <Domains view={settings.data} base={base} onChanged={refresh} />
    </Stack>
  );
}

function ProviderForm({
  view,
  base,
  onSaved,
}: {
  view: WorkspaceSsoView;
  base: string;
  onSaved: (view: WorkspaceSsoView) => void;
}) {
  const [protocol, setProtocol] = useState<Protocol>(view.protocol ?? 'oidc');
  const [issuer, setIssuer] = useState(view.issuer ?? '');
  const [clientId, setClientId] = useState(view.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [entryPoint, setEntryPoint] = useState(view.entryPoint ?? '');
  const [idpIssuer, setIdpIssuer] = useState(view.idpIssuer ?? '');
  const [idpCertificate, setIdpCertificate] = useState(view.idpCertificate ?? '');
  const [requireSso, setRequireSso] = useState(view.requireSso);
  const [defaultRole, setDefaultRole] = useState<string>(view.defaultRole);
  const save = useMutation({
    mutationFn: () =>
      api<WorkspaceSsoView>(
        'PUT',
        base,
        protocol === 'oidc'
          ? { protocol, issuer, clientId, ...(clientSecret ? { clientSecret } : {}), requireSso, defaultRole }
          : { protocol, entryPoint, idpIssuer, idpCertificate, requireSso, defaultRole },
      ),
    onSuccess: (saved) => {
      onSaved(saved);
      setClientSecret('');
      done('Single sign-on saved.');
    },
    onError: failed,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={2} size="h4">
          Identity provider
        </Title>
        <SegmentedControl
          value={protocol}
          onChange={(value) => setProtocol(value as Protocol)}
          data={[
            { value: 'oidc', label: 'OpenID Connect' },
            { value: 'saml', label: 'SAML 2.0' },
          ]}
        />
        {protocol === 'oidc' ? (
          <>
            <CopyField
              label="Redirect URI to register at your provider"
              value={view.oidcRedirectUri}
              copy="Copy"
              copied="Copied"
            />
            <TextInput label="Issuer URL" value={issuer} onChange={(e) => setIssuer(e.currentTarget.value)} />
            <TextInput label="Client ID" value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} />
            <PasswordInput
              label="Client secret"
              description={view.hasClientSecret ? 'Stored encrypted. Leave empty to keep it.' : undefined}
              value={clientSecret}
              onChange={(e) => setClientSecret(e.currentTarget.value)}
              autoComplete="off"
            />
          </>
        ) : (
          <>
            <CopyField label="Entity ID (metadata URL)" value={view.samlEntityId} copy="Copy" copied="Copied" />
            <CopyField label="Assertion consumer service URL" value={view.samlAcsUrl} copy="Copy" copied="Copied" />
            <TextInput
              label="Identity provider's sign-on URL"
              value={entryPoint}
              onChange={(e) => setEntryPoint(e.currentTarget.value)}
            />
            <TextInput
              label="Identity provider's issuer (entity ID)"
              value={idpIssuer}
              onChange={(e) => setIdpIssuer(e.currentTarget.value)}
            />
            <Textarea
              label="Signing certificate (PEM)"
              autosize
              minRows={3}
              maxRows={8}
              value={idpCertificate}
              onChange={(e) => setIdpCertificate(e.currentTarget.value)}
            />
          </>
        )}
        <Select
          label="Role of people who join through SSO"
          data={ROLES.map((role) => ({ value: role, label: role[0]?.toUpperCase() + role.slice(1) }))}
          value={defaultRole}
          onChange={(value) => value && setDefaultRole(value)}
          allowDeselect={false}
        />
        <Switch
          label="Require SSO for members"
          description="Once a member has signed in through this provider, this workspace opens only to their SSO sign-ins. Their other workspaces and the owner's password are not affected."
          checked={requireSso}
          onChange={(e) => setRequireSso(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Domains({
  view,
  base,
  onChanged,
}: {
  view: WorkspaceSsoView;
  base: string;
  onChanged: (view: WorkspaceSsoView) => void;
}) {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const add = useMutation({
    mutationFn: () => api<WorkspaceSsoView>('POST', `${base}/domains`, { domain }),
    onSuccess: (saved) => {
      onChanged(saved);
      setDomain('');
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (name: string) => api<void>('DELETE', `${base}/domains/${encodeURIComponent(name)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sso'] }),
    onError: failed,
  });
  const verify = useMutation({
    mutationFn: (name: string) => api<{ url: string }>('POST', `${base}/domains/${encodeURIComponent(name)}/verify`),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: failed,
  });

  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          Domains
        </Title>
        <Text size="sm" c="dimmed">
          People with an address at a verified domain log in through your identity provider and join this workspace.
          Verify a domain by signing in through the provider with your own address there.
        </Text>
        {view.domains.length === 0 ? (
          <Text size="sm">No domains yet.</Text>
        ) : (
          <Table>
            <Table.Tbody>
              {view.domains.map((d) => (
                <Table.Tr key={d.domain}>
                  <Table.Td>{d.domain}</Table.Td>
                  <Table.Td>
                    <Badge color={d.verified ? 'green' : 'gray'} variant="light">
                      {d.verified ? 'Verified' : 'Not verified'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      {!d.verified && view.protocol && (
                        <Button size="xs" variant="light" onClick={() => verify.mutate(d.domain)}>
                          Verify
                        </Button>
                      )}
                      <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(d.domain)}>
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group
          align="flex-end"
          component="form"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            add.mutate();
          }}
        >
          <TextInput
            label="Add a domain"
            placeholder="example.com"
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
          />
          <Button type="submit" variant="default" loading={add.isPending}>
            Add
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
