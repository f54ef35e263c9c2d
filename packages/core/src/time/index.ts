export * from './days.js';
export * from './duration.js';
export * from './edit.js';
export * from './format.js';
export * from './rounding.js';
export * from './schedule.js';
export * from './views.js';
export * from './wall-clock.js';
