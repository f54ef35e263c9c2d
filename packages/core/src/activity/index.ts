export * from './agent.js';
export * from './categories.js';
export * from './patterns.js';
export * from './privacy.js';
