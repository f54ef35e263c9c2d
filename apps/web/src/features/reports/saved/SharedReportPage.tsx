import { Alert, Box, Center, Container, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { DEFAULT_DURATION_FORMAT, type SharedReportView } from '@sundial/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import { ApiError, parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { Logo } from '../../../components/Logo';
import { type DateOrder, daysOf, rangeLabel, reportFormat } from '../../../components/report-format';
import { barPoints, donutSlices } from '../components/chartPoints';
import { DetailedRow, type DetailedRowActions, entryClock } from '../components/DetailedRow';
import { DetailedTotalsLine } from '../components/DetailedTotals';
import { LoadMoreFooter } from '../components/LoadMoreFooter';
import { MatrixTable, matrixColumns } from '../components/MatrixTable';
import { SummaryTable } from '../components/SummaryTable';
import { t } from '../texts';
import { fetchSharedReport, sharedSubgroups } from './api';
import { st } from './texts';

/** A shared page has no signed-in reader: its days read day before month ("Mon, 23 Nov"). */
const PUBLIC_DATES: DateOrder = { dateFormat: 'YYYY-MM-DD' };

const SummaryCharts = lazy(() => import('../../../components/SummaryCharts'));
type DetailedShare = Extract<SharedReportView['report'], { engine: 'detailed' }>;
type SummaryShare = Extract<SharedReportView['report'], { engine: 'summary' }>;
type Format = ReturnType<typeof reportFormat>;

/**
 * /share/:linkId#<secret>: a saved report shared by a public link, read-only, without signing in.
 * The secret is read from the fragment (browsers never send it) and goes to the API in a header.
 */
export default function SharedReportPage() {
  const { linkId = '' } = useParams();
  const secret = typeof window === 'undefined' ? '' : decodeURIComponent(window.location.hash.slice(1));
  const shared = useQuery({
    queryKey: ['shared-report', linkId, secret],
    queryFn: () => fetchSharedReport(linkId, secret),
    enabled: secret !== '',
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const data = shared.data;
  useEffect(() => {
    document.title = data ? `${data.name} · Sundial` : 'Shared report · Sundial';
  }, [data]);

  let body: React.ReactNode;
  if (!secret) body = <Gone message={st.missingSecret} />;
  else if (shared.error)
    body =
      shared.error instanceof ApiError && shared.error.status === 404 ? (
        <Gone message={st.goneBody} />
      ) : (
        <ErrorPanel message={parseApiError(shared.error).message} onRetry={() => shared.refetch()} />
      );
  else if (!data)
    body = (
      <Center py="xl">
        <Loader aria-label={st.loadingShared} />
      </Center>
    );
  else body = <SharedReport shared={data} linkId={linkId} secret={secret} />;

  return (
    <Box mih="100vh" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))">
      <Group
        component="header"
        px="lg"
        py="sm"
        bg="var(--mantine-color-body)"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Logo />
      </Group>
      <Container component="main" size={1280} py="lg">
        {body}
      </Container>
    </Box>
  );
}

function Gone({ message }: { message: string }) {
  return (
    <Paper withBorder radius="md" p="xl" maw={560} mx="auto" mt="xl">
      <Stack align="center" gap="xs" ta="center">
        <IconLinkOff size={36} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Title order={1} size="h3">
          {st.goneTitle}
        </Title>
        <Text c="dimmed">{message}</Text>
      </Stack>
    </Paper>
  );
}

function SharedReport({ shared, linkId, secret }: { shared: SharedReportView; linkId: string; secret: string }) {
  const format = useMemo(() => reportFormat(shared.currency, DEFAULT_DURATION_FORMAT), [shared.currency]);
  const { report } = shared;
  const range = report.view.range;
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {shared.name}
        </Title>
        <Text c="dimmed" size="sm">
          {st.sharedBy(shared.workspaceName)}
        </Text>
      </div>
      <Text fw={600} data-testid="report-range">
        {rangeLabel(range.from, range.to, PUBLIC_DATES)}
      </Text>
      {shared.moneyHidden && (
        <Alert color="gray" variant="light">
          {st.moneyHidden}
        </Alert>
      )}
      {report.engine === 'detailed' ? (
        <SharedDetailed first={report} linkId={linkId} secret={secret} format={format} />
      ) : report.engine === 'summary' ? (
        report.view.groups.length === 0 && (report.view.totals.trackedSeconds ?? 0) === 0 ? (
          <Empty />
        ) : (
          <Stack gap="md">
            <SharedSummaryCharts report={report} format={format} />
            <Paper withBorder radius="md" p="md">
              <SummaryTable
                groupBy={report.view.groupBy}
                groups={report.view.groups}
                rest={report.view.rest}
                subgroups={
                  report.view.folded
                    ? { groupCount: report.view.groupCount ?? 0, ...sharedSubgroups(linkId, secret) }
                    : undefined
                }
                totals={report.view.totals}
                measures={report.view.measures}
                format={format.measure}
                dates={PUBLIC_DATES}
              />
            </Paper>
          </Stack>
        )
      ) : report.view.rows.length === 0 ? (
        <Empty />
      ) : (
        <Paper withBorder radius="md" p="md">
          <MatrixTable
            view={report.view}
            rowDimension={report.rows}
            columns={matrixColumns(report.view, report.columns, daysOf(range.from, range.to), PUBLIC_DATES)}
            measure={report.view.measures[0] ?? 'trackedSeconds'}
            format={format.measure}
            query={{}}
            label={shared.name}
            dates={PUBLIC_DATES}
          />
        </Paper>
      )}
    </Stack>
  );
}

function Empty() {
  return (
    <Paper withBorder radius="md" p="xl">
      <Text ta="center" c="dimmed">
        {t.empty}
      </Text>
    </Paper>
  );
}

const NO_BARS: NonNullable<SummaryShare['bars']> = { interval: 'day', points: [] };

/** The signed-in Summary's charts (bars over time, donut by the first grouping), fed from the public answer. */
function SharedSummaryCharts({ report, format }: { report: SummaryShare; format: Format }) {
  const { view, bars = NO_BARS } = report;
  const first = view.groupBy[0];
  const points = useMemo(() => barPoints(bars.points, bars.interval, view.range, PUBLIC_DATES), [bars, view.range]);
  return (
    <Suspense
      fallback={
        <Center h={280}>
          <Loader size="sm" aria-label={t.chartLoading} />
        </Center>
      }
    >
      <SummaryCharts
        bars={points}
        barsTitle={t.barsBy(t.dimensions[bars.interval].toLowerCase())}
        donut={donutSlices(first, view.groups, PUBLIC_DATES)}
        donutTitle={t.donutBy(first ? t.dimensions[first] : t.total)}
        show={{ bars: true, donut: !!first }}
        formatSeconds={format.duration}
      />
    </Suspense>
  );
}

const readOnly: DetailedRowActions = { onToggle: () => undefined, onEdit: () => undefined };

/**
 * A shared Detailed report: its entries read-only in the report's sort, a page at a time (the
 * API's keyset cursor, "Load more"), with the whole report's totals; a cost column only when the
 * link includes costs (the API leaves entries' costs out otherwise).
 */
function SharedDetailed({
  first,
  linkId,
  secret,
  format,
}: {
  first: DetailedShare;
  linkId: string;
  secret: string;
  format: Format;
}) {
  const pages = useInfiniteQuery({
    queryKey: ['shared-report', linkId, secret, 'pages'],
    queryFn: async ({ pageParam }) => {
      const next = await fetchSharedReport(linkId, secret, { cursor: pageParam });
      if (next.report.engine !== 'detailed') throw new Error('The shared report changed: reload the page.');
      return next.report;
    },
    initialPageParam: undefined as string | undefined,
    initialData: { pages: [first], pageParams: [undefined] },
    getNextPageParam: (last) => last.view.nextCursor ?? undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const loaded = pages.data?.pages ?? [first];
  const items = loaded.flatMap((p) => p.view.items);
  const totals = first.totals;
  const clock = useMemo(() => entryClock(first.view.range.timeZone), [first.view.range.timeZone]);
  const showAmounts = items.some((e) => e.billableAmount !== null && e.billableAmount !== undefined);
  const showCosts = items.some((e) => e.costAmount !== null && e.costAmount !== undefined);
  const showUser = new Set(items.map((e) => e.userId)).size > 1;
  if (items.length === 0) return <Empty />;
  return (
    <Stack gap="md">
      <DetailedTotalsLine totals={totals} moneyHidden={totals.billableAmount === undefined} format={format} />
      <Paper withBorder radius="md" p="md">
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label="Detailed" highlightOnHover verticalSpacing="xs" data-testid="detailed-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={8} />
                <Table.Th scope="col">{t.detailed.date}</Table.Th>
                <Table.Th scope="col">{t.detailed.descriptionCol}</Table.Th>
                <Table.Th scope="col">{t.detailed.projectTask}</Table.Th>
                {showUser && <Table.Th scope="col">{t.detailed.user}</Table.Th>}
                <Table.Th scope="col">{t.detailed.billable}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t.detailed.duration}
                </Table.Th>
                {showAmounts && (
                  <Table.Th scope="col" ta="right">
                    {t.detailed.amount}
                  </Table.Th>
                )}
                {showCosts && (
                  <Table.Th scope="col" ta="right">
                    {t.detailed.cost}
                  </Table.Th>
                )}
                <Table.Th scope="col">{t.detailed.status}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <DetailedRow
                  key={e.id}
                  entry={e}
                  editable={false}
                  picked={false}
                  showUser={showUser}
                  showAmounts={showAmounts}
                  showCosts={showCosts}
                  pickers={undefined}
                  clock={clock}
                  format={format}
                  actions={readOnly}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <LoadMoreFooter shown={items.length} pages={pages} />
      </Paper>
    </Stack>
  );
}
