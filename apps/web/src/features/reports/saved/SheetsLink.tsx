import { Alert, Badge, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import {
  type CreatedReportCsvLinkView,
  formatDate,
  importDataFormula,
  isCsvLinkable,
  isReportKind,
  type SavedReportView,
} from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { CopyField } from '../../../components/CopyField';
import { done, failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useCreateCsvLink, useCsvLink, useRevokeCsvLink, useSavedReports, useSaveReport } from './api';
import { IncludeCostsCheckbox, ReportNameInput } from './fields';
import { st } from './texts';

const STATUS_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;
const EXPIRIES = ['never', '7', '30', '90'] as const;
type Expiry = (typeof EXPIRIES)[number];

/** A query string as a saved report keeps it, in one order: the same view reads the same. */
function sameView(a: string, b: string): boolean {
  const norm = (q: string) => {
    const params = new URLSearchParams(q.startsWith('?') ? q.slice(1) : q);
    params.delete('cursor');
    params.sort();
    return params.toString();
  };
  return norm(a) === norm(b);
}

/**
 * A saved report's Google Sheets link: creates the CSV link (its formula `=IMPORTDATA("…")` shown
 * once, to copy), shows the link's state, replaces or revokes it. The owner creates it; the owner,
 * or owners and admins on a shared report, revoke it.
 */
export function SheetsLinkPanel({ report }: { report: SavedReportView }) {
  const clock = useClockFormat();
  const date = (iso: string) => formatDate(iso, clock);
  const { workspaceId, can } = useWorkspace();
  const manages = report.canEdit || report.canDelete;
  const state = useCsvLink(workspaceId, report.id, manages && isCsvLinkable(report.kind));
  const create = useCreateCsvLink(workspaceId, report.id);
  const revoke = useRevokeCsvLink(workspaceId, report.id);
  const [expiry, setExpiry] = useState<Expiry>('never');
  const [includeCosts, setIncludeCosts] = useState(false);
  const [created, setCreated] = useState<CreatedReportCsvLinkView | null>(null);
  const formula = created ? importDataFormula(`${window.location.origin}${created.path}`) : '';
  const link = state.data?.link ?? null;
  const active = link?.status === 'active';

  const handleCreate = () => {
    const expiresAt = expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    create.mutate({ expiresAt, includeCosts }, { onSuccess: setCreated });
  };
  const handleRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setCreated(null);
        done(st.sheetsRevoked);
      },
      onError: failed,
    });

  return (
    <Stack gap="md">
      <Text size="sm">{st.sheetsHint}</Text>
      <Text size="sm" c="dimmed">
        {st.sheetsRefresh}
      </Text>
      <Alert color="yellow" variant="light">
        {st.sheetsWarning}
      </Alert>
      {!isCsvLinkable(report.kind) ? (
        <Alert color="gray" variant="light">
          {st.estimatesNotShared}
        </Alert>
      ) : !manages ? (
        <Text size="sm" c="dimmed">
          {st.sheetsOnlyOwner}
        </Text>
      ) : state.isPending ? (
        <Loader size="sm" aria-label={st.sheets} />
      ) : state.error ? (
        <Text c="red" size="sm">
          {parseApiError(state.error).message}
        </Text>
      ) : (
        <>
          {created && active && link?.id === created.id ? (
            <Alert color="green" variant="light" title={st.sheetsReady}>
              <CopyField label={st.sheetsFormula} value={formula} copy={st.sheetsCopy} copied={st.copied} />
            </Alert>
          ) : link ? (
            <Stack gap={4}>
              <Group gap="sm" wrap="nowrap">
                <Badge color={STATUS_COLOR[link.status]} variant="light">
                  {st.status[link.status]}
                </Badge>
                <Text size="sm">{st.sheetsLine(link, date)}</Text>
              </Group>
              {active && (
                <Text size="sm" c="dimmed">
                  {st.sheetsReplaceHint}
                </Text>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {st.sheetsNone}
            </Text>
          )}
          {!report.canEdit && !active ? (
            <Text size="sm" c="dimmed">
              {st.sheetsOnlyOwner}
            </Text>
          ) : null}
          <Group align="flex-end" gap="md" wrap="wrap">
            {report.canEdit && (
              <>
                <Select
                  label={st.expiry}
                  data={EXPIRIES.map((value) => ({ value, label: st.expiries[value] }))}
                  value={expiry}
                  onChange={(v) => setExpiry((v ?? 'never') as Expiry)}
                  allowDeselect={false}
                  w={160}
                />
                {can('saved_reports:share_costs') && (
                  <IncludeCostsCheckbox checked={includeCosts} onChange={setIncludeCosts} />
                )}
                <Button onClick={handleCreate} loading={create.isPending}>
                  {active ? st.sheetsReplace : st.sheetsCreate}
                </Button>
              </>
            )}
            {active && (
              <Button color="red" variant="light" onClick={handleRevoke} loading={revoke.isPending}>
                {st.revoke}
              </Button>
            )}
          </Group>
          {create.error && (
            <Alert color="red" variant="light">
              {parseApiError(create.error).message}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}

/** The Google Sheets link of a saved report, in a dialog (Saved reports' row actions). */
export function SheetsLinkDialog({ report, onClose }: { report: SavedReportView; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={st.sheetsTitle(report.name)} size="lg" centered>
      {/* On Free a link made before stays visible, to revoke; making one is refused. */}
      <Stack gap="md">
        {!useWorkspace().hasFeature('export') && <UpgradePrompt feature="export" />}
        <SheetsLinkPanel report={report} />
      </Stack>
    </Modal>
  );
}

/**
 * The Export menu's Google Sheets dialog for the report on screen: the viewer's saved report of
 * this page with this view when there is one; otherwise it saves the view first (a link reads a
 * saved report, so the sheet keeps working when the page's URL changes).
 */
export function SheetsExportDialog({ onClose }: { onClose: () => void }) {
  const { workspaceId, me } = useWorkspace();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const kind = pathname.replace(/\/$/, '').split('/').pop() ?? '';
  const query = params.toString();
  const list = useSavedReports(workspaceId);
  const save = useSaveReport(workspaceId);
  const [saved, setSaved] = useState<SavedReportView | null>(null);
  const [name, setName] = useState('');
  const match =
    saved ??
    list.data?.items.find((r) => r.ownerUserId === me.user.id && r.kind === kind && sameView(r.query, query)) ??
    null;
  const error = save.error ? parseApiError(save.error) : null;

  const handleSave = (event: FormEvent) => {
    event.preventDefault();
    if (!isReportKind(kind)) return;
    save.mutate({ name, kind, query, visibility: 'private' }, { onSuccess: setSaved });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={match ? st.sheetsTitle(match.name) : st.sheetsTitleUnsaved}
      size="lg"
      centered
    >
      {list.isPending ? (
        <Loader size="sm" aria-label={st.sheets} />
      ) : match ? (
        <SheetsLinkPanel report={match} />
      ) : (
        <form onSubmit={handleSave} noValidate>
          <Stack gap="md">
            <Text size="sm">{st.sheetsSaveFirst}</Text>
            <ReportNameInput value={name} onChange={setName} error={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {st.cancel}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {st.sheetsSaveAndCreate}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
