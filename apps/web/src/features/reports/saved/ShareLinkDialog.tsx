import { Alert, Badge, Button, Divider, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { type CreatedReportLinkView, formatDate, isLinkShareable, type SavedReportView, shareUrl } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { CopyField } from '../../../components/CopyField';
import { done, failed } from '../../../components/notify';
import { useCreateReportLink, useReportLinks, useRevokeReportLink } from './api';
import { IncludeCostsCheckbox } from './fields';
import { st } from './texts';

type Expiry = keyof typeof st.expiries;
const STATUS_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;

/** The moment a link stops: never, a number of days from now, or the end of a chosen day (the reader's local midnight). */
function expiresAtOf(expiry: Expiry, lastDay: string): string | null {
  if (expiry === 'never') return null;
  if (expiry === 'date') {
    const [y, m, d] = lastDay.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, d + 1).toISOString();
  }
  return new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
}

/**
 * "Share link" of a saved report: creates public read-only links (an expiry, costs for owners and
 * admins), shows a new link's address once, and lists the links with their state to revoke them.
 */
export function ShareLinkDialog({ report, onClose }: { report: SavedReportView; onClose: () => void }) {
  const clock = useClockFormat();
  const date = (iso: string) => formatDate(iso, clock);
  const { workspaceId, can } = useWorkspace();
  const links = useReportLinks(workspaceId, report.id);
  const create = useCreateReportLink(workspaceId, report.id);
  const revoke = useRevokeReportLink(workspaceId, report.id);
  const [expiry, setExpiry] = useState<Expiry>('never');
  const [lastDay, setLastDay] = useState('');
  const [dayError, setDayError] = useState<string | null>(null);
  const [includeCosts, setIncludeCosts] = useState(false);
  const [created, setCreated] = useState<CreatedReportLinkView | null>(null);
  const shareable = isLinkShareable(report.kind);
  const address = created ? shareUrl(window.location.origin, created.id, created.secret) : '';

  const handleCreate = () => {
    if (expiry === 'date' && !lastDay) {
      setDayError(st.expiryDateMissing);
      return;
    }
    setDayError(null);
    const expiresAt = expiresAtOf(expiry, lastDay);
    create.mutate({ expiresAt, includeCosts }, { onSuccess: setCreated });
  };

  return (
    <Modal opened onClose={onClose} title={st.shareTitle(report.name)} size="lg" centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {st.shareHint}
        </Text>
        {!shareable ? (
          <Alert color="yellow" variant="light">
            {st.estimatesNotShared}
          </Alert>
        ) : (
          <Group align="flex-end" gap="md" wrap="wrap">
            <Select
              label={st.expiry}
              data={(Object.keys(st.expiries) as Expiry[]).map((value) => ({ value, label: st.expiries[value] }))}
              value={expiry}
              onChange={(v) => setExpiry((v ?? 'never') as Expiry)}
              allowDeselect={false}
              w={160}
            />
            {expiry === 'date' && (
              <TextInput
                type="date"
                label={st.expiryDate}
                value={lastDay}
                onChange={(e) => setLastDay(e.currentTarget.value)}
                error={dayError}
                w={170}
              />
            )}
            {can('saved_reports:share_costs') && (
              <IncludeCostsCheckbox checked={includeCosts} onChange={setIncludeCosts} />
            )}
            <Button onClick={handleCreate} loading={create.isPending}>
              {st.createLink}
            </Button>
          </Group>
        )}
        {create.error && (
          <Alert color="red" variant="light">
            {parseApiError(create.error).message}
          </Alert>
        )}
        {created && (
          <Alert color="green" variant="light" title={st.linkReady}>
            <CopyField label={st.linkLabel} value={address} copy={st.copy} copied={st.copied} />
          </Alert>
        )}
        <Divider label={st.links} labelPosition="left" />
        {links.isPending ? (
          <Loader size="sm" aria-label={st.links} />
        ) : links.error ? (
          <Text c="red" size="sm">
            {parseApiError(links.error).message}
          </Text>
        ) : links.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {st.noLinks}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={st.links}>
            {links.data.items.map((link) => (
              <Group key={link.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap">
                  <Badge color={STATUS_COLOR[link.status]} variant="light">
                    {st.status[link.status]}
                  </Badge>
                  <Text size="sm">{st.linkLine(link, date)}</Text>
                </Group>
                {link.status === 'active' && (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    loading={revoke.isPending && revoke.variables === link.id}
                    onClick={() =>
                      revoke.mutate(link.id, {
                        onSuccess: () => {
                          if (created?.id === link.id) setCreated(null);
                          done(st.revoked);
                        },
                        onError: failed,
                      })
                    }
                  >
                    {st.revoke}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
