/** `--name N` of the command line as a number, or `fallback`. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * The seeded bench database's address: DATABASE_URL's server, database BENCH_DB (else
 * `fallback`), the one bench:seed-large made. Without DATABASE_URL it says so and exits.
 */
export function seededDatabaseUrl(fallback, orElse = '') {
  if (!process.env.DATABASE_URL) {
    console.error(`Set DATABASE_URL (and BENCH_DB, the database bench:seed-large made)${orElse}.`);
    process.exit(1);
  }
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${process.env.BENCH_DB ?? fallback}`;
  return url.href;
}
