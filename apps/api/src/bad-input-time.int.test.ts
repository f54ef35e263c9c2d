import { badInputSuite } from '../test/bad-input/run.js';

/** Issue 9's generated bad input (see bad-input.int.test.ts) for time entries, the timer and time settings. */
badInputSuite('time');
