// The XLSX writer against a candidate (issue 32): 100,000 Detailed-like rows (10 columns: three
// dates, four texts, a duration, a flag, an amount), written whole by each writer in a child
// process of its own (so each one's peak memory is its own), alternating, `--runs` times.
// exceljs is Sundial's writer (its streaming WorkbookWriter); write-excel-file is measured only
// when installed: `npm i --no-save write-excel-file && node bench/xlsx-writers.mjs`.
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROWS = 100_000;
const COLUMNS = ['Date', 'Start', 'End', 'Person', 'Project', 'Task', 'Description', 'Duration', 'Billable', 'Amount'];
const formatOf = (i) => (i < 3 ? 'yyyy-mm-dd' : i === 7 ? '[h]:mm:ss' : i === 9 ? '#,##0.00' : undefined);
const rowOf = (i) => {
  const day = 1 + (i % 300);
  return [
    new Date(Date.UTC(2026, 0, day)),
    new Date(Date.UTC(2026, 0, day, 9)),
    new Date(Date.UTC(2026, 0, day, 11)),
    `Person ${i % 40}`,
    `Project ${i % 120}`,
    `Task ${i % 700}`,
    `Worked on item ${i} of the backlog, reviewed`,
    (i % 28_800) / 86_400,
    i % 3 === 0 ? 'Yes' : 'No',
    (i % 90_000) / 100,
  ];
};

/** The longest the event loop went without a turn (a 10 ms timer's lateness), meanwhile. */
function loopWatch() {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 10);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    return longest;
  };
}

async function write(writer) {
  const stop = loopWatch();
  const started = performance.now();
  let bytes = 0;
  if (writer === 'exceljs') {
    const { default: ExcelJS } = await import('exceljs');
    const out = new PassThrough();
    out.on('data', (chunk) => {
      bytes += chunk.length;
    });
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = COLUMNS.map((_, i) => ({ key: String(i), width: 14, style: { numFmt: formatOf(i) } }));
    sheet.addRow(COLUMNS).commit();
    for (let i = 0; i < ROWS; i++) {
      sheet.addRow(rowOf(i)).commit();
      // As the export does: rows arrive in chunks from the database, the loop turns between them.
      if (i % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    sheet.commit();
    await book.commit();
  } else {
    const { default: writeExcelFile } = await import('write-excel-file/node');
    const data = [COLUMNS.map((value) => ({ value, fontWeight: 'bold' }))];
    for (let i = 0; i < ROWS; i++)
      data.push(
        rowOf(i).map((value, j) => ({
          value,
          type: value instanceof Date ? Date : typeof value === 'number' ? Number : String,
          format: formatOf(j),
        })),
      );
    bytes = (await writeExcelFile(data, { stickyRowsCount: 1 }).toBuffer()).length;
  }
  return {
    writer,
    seconds: (performance.now() - started) / 1000,
    mb: bytes / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1e3,
    longestStallMs: stop(),
  };
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await write(process.argv[3])));
} else {
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
  const writers = ['exceljs'];
  try {
    await import('write-excel-file/node');
    writers.push('write-excel-file');
  } catch {
    console.log('write-excel-file is not installed: `npm i --no-save write-excel-file` to measure it too.');
  }
  const results = {};
  for (let run = 0; run < runs; run++)
    for (const writer of writers) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', writer], {
        encoding: 'utf8',
      });
      results[writer] = [...(results[writer] ?? []), JSON.parse(out)];
    }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  for (const [writer, list] of Object.entries(results)) {
    const m = (key) => median(list.map((r) => r[key]));
    console.log(
      `${writer}: ${ROWS} rows, ${m('mb').toFixed(1)} MB in ${m('seconds').toFixed(2)} s (median of ${list.length}), ` +
        `max RSS ${m('maxRssMb').toFixed(0)} MB, longest event-loop stall ${m('longestStallMs').toFixed(0)} ms`,
    );
  }
}
