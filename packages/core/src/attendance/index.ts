export * from './working-time.js';
