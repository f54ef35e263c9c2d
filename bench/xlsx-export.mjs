// The Detailed report as XLSX (issue 33), end to end as a user gets it, against exceljs's own writer
// on the same rows. Each round: the export job of ~100,000 entries through the API (POST
// export-jobs, polled every 100 ms until done; the server's own createdAt..finishedAt is the
// time), then exceljs's streaming WorkbookWriter writing the very rows of that file (read back
// from it: values, number formats and column widths) from memory in a child process. Prints each
// round's ratio (export / writer), min/median/max, and the two medians.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_summaries npm run bench:seed-large -- --users 1000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_summaries npm run bench:xlsx-export
// (-- --rounds N, default 3; -- --days N, the range's length up to the last entry, default 110)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { numberArg, seededDatabaseUrl } from './lib/args.mjs';
import { startServer } from './lib/server.mjs';

/** The child: write the rows in `file` with exceljs as the export does, print the seconds it took. */
async function writeFromMemory(file) {
  const { columns, rows } = JSON.parse(fs.readFileSync(file, 'utf8'), (_, v) =>
    typeof v === 'string' && v.startsWith('\u0000date:') ? new Date(v.slice(6)) : v,
  );
  const started = performance.now();
  const out = new PassThrough();
  out.resume();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    key: String(i),
    width: c.width,
    style: c.numFmt ? { numFmt: c.numFmt } : {},
  }));
  for (let i = 0; i < rows.length; i++) {
    sheet.addRow(rows[i]).commit();
    if (i % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await book.commit();
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000 }));
}

if (process.argv[2] === '--child') {
  await writeFromMemory(process.argv[3]);
} else {
  const ROUNDS = numberArg('rounds', 3);
  const server = await startServer(seededDatabaseUrl('sundial_bench_summaries'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-export-'));
  try {
    const me = await (await server.call('/api/v1/me')).json();
    const ws = `/api/v1/workspaces/${me.currentWorkspaceId}`;
    // The range: the last `days` days up to the last entry (its first page says when that is).
    const page = await (
      await server.call(`${ws}/reports/detailed?preset=custom&from=2020-01-01&to=2029-12-30&timeZone=UTC&limit=1`)
    ).json();
    const last = page.items[0].start.slice(0, 10);
    const from = new Date(Date.parse(last) - (numberArg('days', 110) - 1) * 86_400_000).toISOString().slice(0, 10);
    const query = `kind=detailed&preset=custom&from=${from}&to=${last}&timeZone=UTC`;
    const ratios = [];
    const exportSeconds = [];
    const writerSeconds = [];
    let rowsTotal = 0;
    let sizeBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const created = await server.call(`${ws}/reports/export-jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, format: 'xlsx' }),
      });
      let job = await created.json();
      if (created.status !== 202) throw new Error(`export job: ${created.status} ${JSON.stringify(job)}`);
      while (job.status !== 'done') {
        if (job.status === 'failed') throw new Error(`export failed: ${job.error}`);
        await new Promise((r) => setTimeout(r, 100));
        job = await (await server.call(`${ws}/reports/export-jobs/${job.id}`)).json();
      }
      const took = (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000;
      rowsTotal = job.rowsTotal;
      sizeBytes = job.sizeBytes;
      // The same rows, read back from the file, for exceljs to write from memory.
      const file = Buffer.from(await (await server.call(`${ws}/reports/export-jobs/${job.id}/file`)).arrayBuffer());
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file);
      const sheet = book.worksheets[0];
      const rows = [];
      sheet.eachRow({ includeEmpty: true }, (row) => {
        rows.push((row.values ?? []).slice(1).map((v) => (v instanceof Date ? `\u0000date:${v.toISOString()}` : v)));
      });
      const sample = sheet.getRow(2);
      const columns = (sheet.columns ?? []).map((c, i) => ({
        width: c.width ?? 14,
        numFmt: sample.getCell(i + 1).numFmt,
      }));
      const dump = path.join(scratch, 'rows.json');
      fs.writeFileSync(dump, JSON.stringify({ columns, rows }));
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dump], {
        encoding: 'utf8',
      });
      const writer = JSON.parse(out).seconds;
      exportSeconds.push(took);
      writerSeconds.push(writer);
      ratios.push(took / writer);
      console.log(
        `round ${round + 1}: export ${took.toFixed(2)} s, exceljs alone ${writer.toFixed(2)} s, ${(took / writer).toFixed(2)}x`,
      );
    }
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
    const r = sorted(ratios);
    console.log(
      `${rowsTotal.toLocaleString()} rows (${from}..${last}), ${(sizeBytes / 1e6).toFixed(1)} MB: export median ${median(exportSeconds).toFixed(2)} s, ` +
        `exceljs alone median ${median(writerSeconds).toFixed(2)} s; export / writer ${r[0].toFixed(2)} / ${median(ratios).toFixed(2)} / ${r.at(-1).toFixed(2)}`,
    );
  } finally {
    server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
