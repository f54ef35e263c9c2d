import { config } from 'zod';

/**
 * zod compiles object parsers with `new Function` when it may, and probes for that the first time an
 * object schema is built. Our Content-Security-Policy has no 'unsafe-eval', so even the caught probe
 * is reported as a violation. The app parses without the compiler; main.tsx imports this first, before
 * any module that builds a schema.
 */
config({ jitless: true });
