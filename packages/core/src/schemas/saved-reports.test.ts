import { describe, expect, it } from 'vitest';
import {
  createSavedReportBody,
  importDataFormula,
  isCsvLinkable,
  isLinkShareable,
  isReportKind,
  REPORT_KIND_SLUGS,
  reportCsvPath,
  savedReportQuery,
  shareUrl,
} from './saved-reports.js';

describe('saved reports', () => {
  it('knows the report pages one can save, and no others', () => {
    expect(REPORT_KIND_SLUGS).toContain('people-by-days-and-task');
    expect(isReportKind('summary')).toBe(true);
    expect(isReportKind('toString')).toBe(false);
    expect(isReportKind('margin')).toBe(true);
    expect(isReportKind('estimates')).toBe(true);
    expect(isReportKind('budgets')).toBe(false);
  });

  it('shares by page link and by CSV link every exportable kind (Summary, matrix, Detailed), Estimates by neither', () => {
    expect(REPORT_KIND_SLUGS.filter((k) => !isLinkShareable(k))).toEqual(['estimates']);
    expect(REPORT_KIND_SLUGS.filter((k) => !isCsvLinkable(k))).toEqual(['estimates']);
    expect(isCsvLinkable('nope')).toBe(false);
  });

  it('writes the IMPORTDATA formula of a CSV link', () => {
    expect(importDataFormula(`https://sundial.example${reportCsvPath('abc_-1')}`)).toBe(
      '=IMPORTDATA("https://sundial.example/api/v1/public/reports/csv/abc_-1.csv")',
    );
  });

  it("keeps a page's own keys beside the filters, and drops a Detailed page's cursor", () => {
    const query = savedReportQuery.parse(
      '?preset=lastMonth&projects=0190a000-0000-7000-8000-000000000001&chart=donut&cursor=x',
    );
    expect(query).toBe('preset=lastMonth&projects=0190a000-0000-7000-8000-000000000001&chart=donut');
  });

  it('refuses filters the report engine would refuse, naming the problem', () => {
    const parsed = savedReportQuery.safeParse('preset=custom&from=2026-02-01&to=2026-01-01');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      "The report's filters are not valid: The range ends before it starts.",
    );
    expect(savedReportQuery.safeParse('measures=hours').success).toBe(false);
  });

  it('trims names and keeps reports private unless said', () => {
    const body = createSavedReportBody.parse({ name: '  Weekly  ', kind: 'by-days', query: '' });
    expect(body).toEqual({ name: 'Weekly', kind: 'by-days', query: '', visibility: 'private' });
  });

  it('puts the secret of a link in the fragment', () => {
    expect(shareUrl('https://sundial.example/', 'abc', 's3cret')).toBe('https://sundial.example/share/abc#s3cret');
  });
});
