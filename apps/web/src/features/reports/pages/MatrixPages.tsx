import { Select } from '@mantine/core';
import { type ReportDimension, type ReportMeasure, resolvePreset } from '@sundial/core';
import { useMemo } from 'react';
import { useWorkspace } from '../../../api/session';
import { daysOf, useReportFormat } from '../../../components/report-format';
import { useMatrix } from '../api';
import { MatrixTable, matrixColumns } from '../components/MatrixTable';
import { MoneyHiddenNotice, ReportBody, ReportFrame, useReportUrl, useViewerDays } from '../components/ReportFrame';
import { t } from '../texts';
import { readAxes, readMeasures } from '../url';

const MATRIX_MEASURES: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'billableAmount', 'entryCount'];
/** Rows whose key is also a filter, so a row can open on its breakdown. */
const FILTERABLE: ReadonlySet<ReportDimension> = new Set(['user', 'group', 'client', 'project', 'task', 'tag']);

interface MatrixSpec {
  label: string;
  rows: ReportDimension;
  columns: ReportDimension;
  /** What a row opens on (a person's tasks); none when the rows do not nest. */
  expand?: ReportDimension;
  /** Rows the viewer may switch to (By days); the report's own rows only when absent. */
  rowChoices?: ReportDimension[];
}

/** One matrix report: rows x columns of one measure, with totals; the rows and the measure live in the URL. */
function MatrixReport({ spec }: { spec: MatrixSpec }) {
  const { workspaceId, me } = useWorkspace();
  const url = useReportUrl();
  const { params, filters, update } = url;
  const { today, weekStart } = useViewerDays();
  const format = useReportFormat();
  const axes = spec.rowChoices ? readAxes(params, spec) : { rows: spec.rows, columns: spec.columns };
  const wanted = readMeasures(params, ['trackedSeconds'])[0] ?? 'trackedSeconds';
  const range = useMemo(() => resolvePreset(filters.preset, today, weekStart, filters), [filters, today, weekStart]);
  const query = { ...filters, ...axes };
  const matrix = useMatrix(workspaceId, query, [wanted]);
  const data = matrix.data;
  const measure = data && !data.measures.includes(wanted) ? 'trackedSeconds' : wanted;
  const expand =
    spec.expand && FILTERABLE.has(axes.rows) && axes.rows !== spec.expand && axes.columns !== spec.expand
      ? spec.expand
      : undefined;
  const columns = data ? matrixColumns(data, axes.columns, daysOf(data.range.from, data.range.to), me.user) : [];

  const controls = (
    <>
      {spec.rowChoices && (
        <Select
          label={t.rowsLabel}
          data={spec.rowChoices.map((d) => ({ value: d, label: t.dimensions[d] }))}
          value={axes.rows}
          onChange={(rows) => update({ rows: rows === spec.rows ? undefined : (rows ?? undefined) })}
          allowDeselect={false}
          w={150}
        />
      )}
      <Select
        label={t.show}
        data={MATRIX_MEASURES.map((m) => ({ value: m, label: t.measures[m] }))}
        value={wanted}
        onChange={(m) => update({ measures: m === 'trackedSeconds' ? undefined : (m ?? undefined) })}
        allowDeselect={false}
        w={170}
      />
    </>
  );

  return (
    <ReportFrame
      url={url}
      range={data?.range ?? range}
      controls={controls}
      exportAs={{ kind: 'matrix', query: { ...query, measures: [measure] }, title: spec.label }}
      notice={<MoneyHiddenNotice hidden={data?.moneyHidden} />}
    >
      <ReportBody query={matrix} isEmpty={!!data && data.rows.length === 0}>
        {data && (
          <MatrixTable
            view={data}
            rowDimension={axes.rows}
            columns={columns}
            measure={measure}
            format={format.measure}
            expand={expand}
            query={query}
            label={spec.label}
            dates={me.user}
          />
        )}
      </ReportBody>
    </ReportFrame>
  );
}

export const ByDaysPage = () => (
  <MatrixReport
    spec={{
      label: 'By days',
      rows: 'project',
      columns: 'day',
      expand: 'task',
      rowChoices: ['project', 'user', 'client', 'task', 'tag', 'group'],
    }}
  />
);
export const PeopleByTaskPage = () => (
  <MatrixReport spec={{ label: 'People by task', rows: 'user', columns: 'task' }} />
);
export const PeopleByDaysAndTaskPage = () => (
  <MatrixReport spec={{ label: 'People by days and task', rows: 'user', columns: 'day', expand: 'task' }} />
);
export const PeopleByDaysPage = () => <MatrixReport spec={{ label: 'People by days', rows: 'user', columns: 'day' }} />;
export const PeopleByProjectsPage = () => (
  <MatrixReport spec={{ label: 'People by projects', rows: 'user', columns: 'project', expand: 'task' }} />
);
