export * from './contracts.js';
export * from './leave.js';
export * from './working-time.js';
