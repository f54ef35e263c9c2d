import {
  Alert,
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
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { WorkspaceSsoView } from '@sundial/core';
import { formatDate } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { CopyField } from '../../../components/CopyField';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';

type Protocol = 'oidc' | 'saml';
const ROLES = ['admin', 'manager', 'member', 'guest'] as const;

/**
 * Workspace SSO (Pro, owners and admins): the identity provider (OpenID Connect or SAML 2.0), the
 * e-mail domains it serves (each proved by a TXT record at the domain's DNS),
 * "require SSO" and the role people join with.
 */
export function SsoSettingsPage() {
  const { workspaceId, can, hasFeature } = useWorkspace();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['sso', workspaceId],
    queryFn: () => api('GET /workspaces/:workspaceId/sso', { params: { workspaceId } }),
    enabled: can('workspace:update'),
  });
  const refresh = (view: WorkspaceSsoView) => queryClient.setQueryData(['sso', workspaceId], view);

  if (!can('workspace:update')) return <ErrorPanel message="Only owners and admins manage single sign-on." />;
  if (!hasFeature('sso')) return <UpgradePrompt feature="sso" />;
  if (settings.isPending) return <Loader m="xl" />;
  if (settings.isError) return <ErrorPanel onRetry={() => settings.refetch()} />;
  return (
    <Stack gap="lg" p="lg" maw={760}>
      <ProviderForm view={settings.data} workspaceId={workspaceId} onSaved={refresh} />
      <Paper withBorder p="lg">
        <Stack gap="xs">
          <CopyField label="Workspace ID" value={workspaceId} copy="Copy" copied="Copied" />
          <Text size="sm" c="dimmed">
            People may type it instead of their e-mail in "Log in with SSO" on the log-in page.
          </Text>
        </Stack>
      </Paper>
      <Domains view={settings.data} workspaceId={workspaceId} onChanged={refresh} />
    </Stack>
  );
}

function ProviderForm({
  view,
  workspaceId,
  onSaved,
}: {
  view: WorkspaceSsoView;
  workspaceId: string;
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
  const [defaultRole, setDefaultRole] = useState<(typeof ROLES)[number]>(view.defaultRole);
  const save = useMutation({
    mutationFn: () =>
      api('PUT /workspaces/:workspaceId/sso', {
        params: { workspaceId },
        body:
          protocol === 'oidc'
            ? { protocol, issuer, clientId, ...(clientSecret ? { clientSecret } : {}), requireSso, defaultRole }
            : { protocol, entryPoint, idpIssuer, idpCertificate, requireSso, defaultRole },
      }),
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
          onChange={(value) => setDefaultRole(ROLES.find((role) => role === value) ?? defaultRole)}
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

/** What the domains panel says (issue 29: a domain is proved by a TXT record). */
const domainTexts = {
  title: 'Domains',
  intro:
    'People with an address at a verified domain log in through your identity provider and join this workspace. ' +
    'Prove a domain is yours by publishing its TXT record at your DNS provider, then press Verify.',
  none: 'No domains yet.',
  add: 'Add a domain',
  publish: 'Publish this TXT record at your DNS provider, then press Verify. DNS changes can take a while to be seen.',
  recordName: 'Record name',
  recordValue: 'Record value (TXT)',
  verified: 'Verified',
  pending: 'Pending',
  verifiedOn: (date: string) => `Verified on ${date}. You may keep the record.`,
  verify: 'Verify',
  remove: 'Remove',
  nowVerified: (domain: string) => `${domain} is verified.`,
} as const;

type SsoDomain = WorkspaceSsoView['domains'][number];

function Domains({
  view,
  workspaceId,
  onChanged,
}: {
  view: WorkspaceSsoView;
  workspaceId: string;
  onChanged: (view: WorkspaceSsoView) => void;
}) {
  const [domain, setDomain] = useState('');
  const add = useMutation({
    mutationFn: () => api('POST /workspaces/:workspaceId/sso/domains', { params: { workspaceId }, body: { domain } }),
    onSuccess: (saved) => {
      onChanged(saved);
      setDomain('');
    },
  });
  const addError = add.isError ? parseApiError(add.error) : undefined;

  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {domainTexts.title}
        </Title>
        <Text size="sm" c="dimmed">
          {domainTexts.intro}
        </Text>
        {view.domains.length === 0 ? (
          <Text size="sm">{domainTexts.none}</Text>
        ) : (
          view.domains.map((d) => (
            <DomainClaim key={d.domain} claim={d} workspaceId={workspaceId} onChanged={onChanged} />
          ))
        )}
        <Group
          align="flex-start"
          component="form"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            add.mutate();
          }}
        >
          <TextInput
            label={domainTexts.add}
            placeholder="example.com"
            value={domain}
            onChange={(e) => {
              setDomain(e.currentTarget.value);
              add.reset();
            }}
            error={addError ? (addError.fields.domain ?? addError.message) : undefined}
            style={{ flex: 1, maxWidth: 420 }}
          />
          <Button type="submit" variant="default" loading={add.isPending} mt={25}>
            Add
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** One claimed domain: its state, the TXT record that proves it, Verify and Remove. */
function DomainClaim({
  claim,
  workspaceId,
  onChanged,
}: {
  claim: SsoDomain;
  workspaceId: string;
  onChanged: (view: WorkspaceSsoView) => void;
}) {
  const clock = useClockFormat();
  const queryClient = useQueryClient();
  const params = { workspaceId, domain: claim.domain };
  const remove = useMutation({
    mutationFn: () => api('DELETE /workspaces/:workspaceId/sso/domains/:domain', { params }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sso'] }),
    onError: failed,
  });
  const verify = useMutation({
    mutationFn: () => api('POST /workspaces/:workspaceId/sso/domains/:domain/verify', { params }),
    onSuccess: (saved) => {
      onChanged(saved);
      done(domainTexts.nowVerified(claim.domain));
    },
  });

  return (
    <Paper withBorder p="md" component="section" aria-label={claim.domain}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm">
            <Text fw={600}>{claim.domain}</Text>
            <Badge color={claim.verified ? 'green' : 'yellow'} variant="light">
              {claim.verified ? domainTexts.verified : domainTexts.pending}
            </Badge>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {!claim.verified && (
              <Button size="xs" variant="light" loading={verify.isPending} onClick={() => verify.mutate()}>
                {domainTexts.verify}
              </Button>
            )}
            <Button size="xs" variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {domainTexts.remove}
            </Button>
          </Group>
        </Group>
        {claim.verified && claim.verifiedAt ? (
          <Text size="sm" c="dimmed">
            {domainTexts.verifiedOn(formatDate(claim.verifiedAt, clock))}
          </Text>
        ) : (
          <>
            <Text size="sm">{domainTexts.publish}</Text>
            <CopyField label={domainTexts.recordName} value={claim.record.name} copy="Copy" copied="Copied" />
            <CopyField label={domainTexts.recordValue} value={claim.record.value} copy="Copy" copied="Copied" />
          </>
        )}
        {verify.isError && (
          <Alert color="red" variant="light" role="alert">
            {parseApiError(verify.error).message}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
