import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Input,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  API_KEY_ACCESS,
  API_KEY_AREA_TEXT,
  API_KEY_AREAS,
  API_KEY_DEFAULT_DAYS,
  API_KEY_ROLES,
  type ApiKeyAccess,
  type ApiKeyArea,
  type ApiKeyRole,
  type ApiKeyScopes,
  type ApiKeyView,
  type CreatedApiKeyView,
  formatDate,
  formatDateTime,
  ROLE_LABELS,
  type WorkspaceApiKeyView,
} from '@sundial/core';
import { IconExternalLink } from '@tabler/icons-react';
import { type FormEvent, Fragment, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../../api/api-keys';
import { parseApiError } from '../../api/client';
import { useClockFormat } from '../../api/session';
import { AccountTable, Cell } from '../AccountTable';
import { CopyField } from '../CopyField';
import { ErrorPanel } from '../ErrorPanel';
import { done, failed } from '../notify';

/**
 * The section's anchor: the e-mail about a key about to expire links to /homepage/profile#api-keys
 * (a workspace's keys are at #workspace-api-keys).
 */
const anchorOf = (workspaceId?: string) => (workspaceId ? 'workspace-api-keys' : 'api-keys');
const ROLE_OPTIONS = API_KEY_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));
const isWorkspaceKey = (key: ApiKeyView): key is WorkspaceApiKeyView => 'actsAs' in key;
const DAY_MS = 24 * 60 * 60 * 1000;

const ACCESS_LABELS: Record<ApiKeyAccess, string> = { none: 'No access', read: 'Read', write: 'Read & write' };
const ACCESS_OPTIONS = API_KEY_ACCESS.map((value) => ({ value, label: ACCESS_LABELS[value] }));

/** Expiry choices in days from now; the server's default (a year) is preselected. */
const NEVER = 'never';
const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '730', label: '2 years' },
  { value: NEVER, label: 'No expiry' },
];
const expiryOf = (choice: string): string | null =>
  choice === NEVER ? null : new Date(Date.now() + Number(choice) * DAY_MS).toISOString();

const NO_ACCESS: ApiKeyScopes = { time: 'none', projects: 'none', reports: 'none', team: 'none', billing: 'none' };

/** Kept on one line: a date broken at its dashes, or "Never / used", reads badly in a narrow column. */
const NOWRAP = { whiteSpace: 'nowrap' } as const;

const accessOf = (access: ApiKeyAccess) => ACCESS_LABELS[access].toLowerCase();

/**
 * "Time: read & write · Projects: read": the areas a key reaches, the rest left out ("All areas:
 * read" when it reaches them all alike); a long list wraps between areas, never inside one.
 */
function AccessSummary({ scopes }: { scopes: ApiKeyScopes }) {
  const alike = new Set(API_KEY_AREAS.map((area) => scopes[area])).size === 1;
  const parts = alike
    ? [`All areas: ${accessOf(scopes.time)}`]
    : API_KEY_AREAS.filter((area) => scopes[area] !== 'none').map(
        (area) => `${API_KEY_AREA_TEXT[area].label}: ${accessOf(scopes[area])}`,
      );
  return (
    <Text size="sm">
      {parts.map((part, i) => (
        <Fragment key={part}>
          {i > 0 && ' · '}
          <span style={NOWRAP}>{part}</span>
        </Fragment>
      ))}
    </Text>
  );
}

const DocsLink = ({ children }: { children: string }) => (
  <Anchor href="/api/docs" target="_blank" rel="noopener noreferrer" inline>
    {children}
    <IconExternalLink size={14} aria-hidden="true" style={{ marginInlineStart: 2, verticalAlign: 'middle' }} />
    <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
  </Anchor>
);

/**
 * API keys (issue 34): the person's own (Profile), or with `workspaceId` the workspace's, for its
 * integrations (owners and admins): what each reaches, when it expires and was last used, revoked
 * from here; a new key's token is shown once, in the dialog that made it.
 */
export function ApiKeysSection({ workspaceId }: { workspaceId?: string }) {
  const clock = useClockFormat();
  const keys = useApiKeys(workspaceId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const items: ApiKeyView[] = keys.data?.items ?? [];
  const anchor = anchorOf(workspaceId);
  const ref = useScrolledToWhenLinked(!keys.isPending, anchor);

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={`${anchor}-title`} id={anchor} ref={ref}>
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4" id={`${anchor}-title`}>
          {workspaceId ? 'Workspace API keys' : 'API keys'}
        </Title>
        <Button variant="light" onClick={() => setCreating(true)}>
          Create API key
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {workspaceId
          ? 'Keys for the workspace’s integrations: every owner and admin sees and revokes them. Each acts with the role you choose, never beyond your own access, and stops if you leave the workspace.'
          : 'A key lets a script or an integration use the Sundial API as you, only in the areas you give it.'}
      </Text>
      {keys.error ? (
        <ErrorPanel message={parseApiError(keys.error).message} onRetry={() => keys.refetch()} />
      ) : keys.isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm">
          No API keys yet. Create one to use the Sundial API from scripts and integrations.{' '}
          <DocsLink>Read the API documentation</DocsLink>
        </Text>
      ) : (
        <AccountTable
          headers={['Name', 'Key', 'Access', 'Expires', 'Last used']}
          items={items}
          cells={(key) => [
            <div key="name">
              <Cell>{key.name}</Cell>
              {isWorkspaceKey(key) && (
                <Text size="xs" c="dimmed">
                  Acts as {ROLE_LABELS[key.actsAs].toLowerCase()} · made by {key.createdBy.name || key.createdBy.email}
                </Text>
              )}
            </div>,
            <Text key="prefix" size="sm" ff="monospace" style={NOWRAP}>
              {key.prefix}…
            </Text>,
            <AccessSummary key="access" scopes={key.scopes} />,
            key.expired ? (
              <Badge key="expires" color="red" variant="light">
                Expired
              </Badge>
            ) : (
              <Text key="expires" size="sm" style={NOWRAP}>
                {key.expiresAt ? formatDate(key.expiresAt, clock) : 'Never'}
              </Text>
            ),
            key.lastUsedAt ? (
              <div key="used">
                <Text size="sm" style={NOWRAP}>
                  {formatDateTime(key.lastUsedAt, clock)}
                </Text>
                {key.lastUsedIp && (
                  <Text size="xs" c="dimmed">
                    {key.lastUsedIp}
                  </Text>
                )}
              </div>
            ) : (
              <Text key="used" size="sm" c="dimmed" style={NOWRAP}>
                Never used
              </Text>
            ),
          ]}
          action={(key) => (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Revoke ${key.name}`}
              onClick={() => setRevoking(key)}
            >
              Revoke
            </Button>
          )}
        />
      )}
      <CreateApiKeyModal workspaceId={workspaceId} opened={creating} onClose={() => setCreating(false)} />
      <RevokeApiKeyModal workspaceId={workspaceId} apiKey={revoking} onClose={() => setRevoking(null)} />
    </Paper>
  );
}

/**
 * Scrolls the section into view when the address names it (#api-keys): the browser cannot, as the
 * page is drawn after it loads; once the list has loaded, so what lies above has its height.
 */
function useScrolledToWhenLinked(loaded: boolean, anchor: string) {
  const { hash } = useLocation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (loaded && hash === `#${anchor}`) ref.current?.scrollIntoView({ block: 'start' });
  }, [loaded, hash, anchor]);
  return ref;
}

/**
 * The dialog that makes a key, then shows its token until "Done". The token is forgotten once the
 * dialog has faded out (not as it starts to, which would show the empty form for a moment); the
 * form starts afresh each time, as the closed dialog drops its content.
 */
function CreateApiKeyModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId?: string;
  opened: boolean;
  onClose: () => void;
}) {
  const [created, setCreated] = useState<CreatedApiKeyView | null>(null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={() => setCreated(null)}
      title={created ? 'Your new API key' : 'Create API key'}
      size="lg"
      // A stray click must not lose a token that is never shown again.
      closeOnClickOutside={!created}
    >
      {created ? (
        <CreatedToken created={created} onDone={onClose} />
      ) : (
        <CreateApiKeyForm workspaceId={workspaceId} onCreated={setCreated} onCancel={onClose} />
      )}
    </Modal>
  );
}

function CreateApiKeyForm({
  workspaceId,
  onCreated,
  onCancel,
}: {
  workspaceId?: string;
  onCreated: (created: CreatedApiKeyView) => void;
  onCancel: () => void;
}) {
  const clock = useClockFormat();
  const create = useCreateApiKey(workspaceId);
  const [actsAs, setActsAs] = useState<ApiKeyRole>('member');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScopes>(NO_ACCESS);
  const [expiry, setExpiry] = useState(String(API_KEY_DEFAULT_DAYS));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const expiresAt = expiryOf(expiry);
  /** A field changed: its error (`scopes` also stands for `scopes.time` …) no longer applies. */
  const changed = (field: 'name' | 'scopes' | 'expiresAt') =>
    setErrors((all) => Object.fromEntries(Object.entries(all).filter(([key]) => key.split('.')[0] !== field)));

  // The server checks it all and says what is wrong per field (422 `fields`); no second set of rules here.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    create.mutate(
      { name, scopes, expiresAt: expiryOf(expiry), ...(workspaceId ? { actsAs } : {}) },
      {
        onSuccess: onCreated,
        onError: (error) => {
          const { fields } = parseApiError(error);
          setErrors(fields);
          if (Object.keys(fields).length === 0) failed(error);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="What it is for, e.g. the script or integration that uses it"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            changed('name');
          }}
          error={errors.name}
          maxLength={100}
          required
          data-autofocus
        />
        {workspaceId && (
          <Select
            label="Acts as"
            description="What the key may do within its areas: a role’s permissions, never beyond your own"
            data={ROLE_OPTIONS}
            value={actsAs}
            onChange={(v) => v && setActsAs(v as ApiKeyRole)}
            error={errors.actsAs}
            allowDeselect={false}
          />
        )}
        <AreaAccessFields
          scopes={scopes}
          onChange={(next) => {
            setScopes(next);
            changed('scopes');
          }}
          errors={errors}
        />
        <Select
          label="Expires"
          description={
            expiresAt
              ? `On ${formatDate(expiresAt, clock)}. You get an e-mail 7 days before.`
              : 'Works until you revoke it.'
          }
          data={EXPIRY_OPTIONS}
          value={expiry}
          onChange={(v) => {
            if (v) setExpiry(v);
            changed('expiresAt');
          }}
          error={errors.expiresAt}
          allowDeselect={false}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create API key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** An access choice per area, each named by the area and what it covers. */
function AreaAccessFields({
  scopes,
  onChange,
  errors,
}: {
  scopes: ApiKeyScopes;
  onChange: (scopes: ApiKeyScopes) => void;
  errors: Record<string, string>;
}) {
  const id = useId();
  // The server names a bad area `scopes.time`, and a key with no area at all `scopes`.
  const error = errors.scopes ?? API_KEY_AREAS.map((area) => errors[`scopes.${area}`]).find(Boolean);
  return (
    <Stack gap="xs" role="group" aria-labelledby={`${id}-access`} aria-describedby={error ? `${id}-error` : undefined}>
      <Input.Label id={`${id}-access`} labelElement="div" required mb={0}>
        Access
      </Input.Label>
      {API_KEY_AREAS.map((area) => (
        <AreaAccess
          key={area}
          area={area}
          value={scopes[area]}
          onChange={(access) => onChange({ ...scopes, [area]: access })}
        />
      ))}
      {error && <Input.Error id={`${id}-error`}>{error}</Input.Error>}
    </Stack>
  );
}

function AreaAccess({
  area,
  value,
  onChange,
}: {
  area: ApiKeyArea;
  value: ApiKeyAccess;
  onChange: (access: ApiKeyAccess) => void;
}) {
  const id = useId();
  const { label, covers } = API_KEY_AREA_TEXT[area];
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <div style={{ flex: '1 1 14rem' }}>
        <Text size="sm" fw={500} id={`${id}-label`}>
          {label}
        </Text>
        <Text size="xs" c="dimmed" id={`${id}-covers`}>
          {covers}
        </Text>
      </div>
      <SegmentedControl
        size="xs"
        data={ACCESS_OPTIONS}
        value={value}
        onChange={(v) => onChange(v as ApiKeyAccess)}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-covers`}
      />
    </Group>
  );
}

/** The token, this once, with a call to try it. */
function CreatedToken({ created, onDone }: { created: CreatedApiKeyView; onDone: () => void }) {
  const curl = `curl -H "Authorization: Bearer ${created.token}" ${window.location.origin}/api/v1/me`;
  return (
    <Stack gap="md">
      <Alert color="yellow">Copy this key now: it will not be shown again.</Alert>
      <CopyField label={`API key “${created.name}”`} value={created.token} copy="Copy" copied="Copied" />
      <div>
        <Text size="sm" mb={4}>
          Try it:
        </Text>
        {/* Wrapped at its spaces where it can, inside the token only where it must. */}
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {curl}
        </Code>
      </div>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** "Revoke this key?": it stops working at once, for every script that uses it. */
function RevokeApiKeyModal({
  workspaceId,
  apiKey,
  onClose,
}: {
  workspaceId?: string;
  apiKey: ApiKeyView | null;
  onClose: () => void;
}) {
  const revoke = useRevokeApiKey(workspaceId);
  // The key stays named while the dialog fades out, after `apiKey` is cleared.
  const shown = useRef(apiKey);
  if (apiKey) shown.current = apiKey;
  const confirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        done(`API key “${apiKey.name}” revoked.`);
        onClose();
      },
      onError: failed,
    });
  };
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title="Revoke API key">
      <Text size="sm">Revoke “{shown.current?.name}”? Scripts using it stop working at once.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={revoke.isPending} onClick={confirm}>
          Revoke
        </Button>
      </Group>
    </Modal>
  );
}
