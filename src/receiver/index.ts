/** The harness's webhook receiver. */
export * from './receiver.js';
export type { ReceivedDelivery } from './delivery-log.js';
export * from './response-plan.js';
export * from './target-receiver.js';
