import { badInputSuite } from '../test/bad-input/run.js';

/**
 * Issue 9, "every bad input a 4xx": requests generated from the OpenAPI document's schemas for
 * every route that the time, catalog, money and reports files do not take (auth, me, workspaces, members,
 * invites, groups, demo requests, and any route added later), failing on a 5xx or on a refused
 * request that wrote. See test/bad-input/ for how cases are made and what is compared.
 */
badInputSuite('rest');
