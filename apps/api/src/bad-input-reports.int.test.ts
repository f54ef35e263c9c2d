import { badInputSuite } from '../test/bad-input/run.js';

/** Issue 9's generated bad input (see bad-input.int.test.ts) for the reports routes (see FAMILIES in test/bad-input/run.ts). */
badInputSuite('reports');
