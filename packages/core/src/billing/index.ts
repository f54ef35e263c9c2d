export * from './card.js';
export * from './countries.js';
export * from './pricing.js';
export * from './proration.js';
export * from './vat.js';
