import { Alert, Box, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { DEFAULT_DURATION_FORMAT, type SharedReportView } from '@sundial/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import { ApiError, parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { Logo } from '../../../components/Logo';
import { MatrixTable, matrixColumns } from '../components/MatrixTable';
import { SummaryTable } from '../components/SummaryTable';
import { rangeLabel, reportFormat } from '../format';
import { t } from '../texts';
import { daysOf } from '../url';
import { fetchSharedReport } from './api';
import { st } from './texts';

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
  else body = <SharedReport shared={data} />;

  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)">
      <Group
        component="header"
        px="lg"
        py="sm"
        bg="var(--mantine-color-body)"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
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

function SharedReport({ shared }: { shared: SharedReportView }) {
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
        {rangeLabel(range.from, range.to)}
      </Text>
      {shared.moneyHidden && (
        <Alert color="gray" variant="light">
          {st.moneyHidden}
        </Alert>
      )}
      {report.engine === 'summary' ? (
        report.view.groups.length === 0 && (report.view.totals.trackedSeconds ?? 0) === 0 ? (
          <Empty />
        ) : (
          <Paper withBorder radius="md" p="md">
            <SummaryTable
              groupBy={report.view.groupBy}
              groups={report.view.groups}
              totals={report.view.totals}
              measures={report.view.measures}
              format={format.measure}
            />
          </Paper>
        )
      ) : report.view.rows.length === 0 ? (
        <Empty />
      ) : (
        <Paper withBorder radius="md" p="md">
          <MatrixTable
            view={report.view}
            rowDimension={report.rows}
            columns={matrixColumns(report.view, report.columns, daysOf(range.from, range.to))}
            measure={report.view.measures[0] ?? 'trackedSeconds'}
            format={format.measure}
            query={{}}
            label={shared.name}
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
