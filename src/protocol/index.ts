/**
 * The wire protocol both sides speak, as pure functions shared by the client, the mock, the receiver and the checks:
 * SVC-HMAC-SHA256 request signing, both webhook signature schemes, and path splitting.
 */
export * from './request-signature.js';
export * from './split-path-query.js';
export * from './header-names.js';
export * from './service-signature.js';
export * from './hotel-signature.js';
