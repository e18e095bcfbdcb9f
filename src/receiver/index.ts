/** The harness's webhook receiver. */
export * from './receiver.js';
export * from './response-plan.js';
export * from './target-receiver.js';
