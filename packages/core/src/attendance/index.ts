export * from './contracts.js';
export * from './working-time.js';
