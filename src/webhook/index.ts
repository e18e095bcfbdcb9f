/** Signing and verification of both webhook schemes: pure functions shared by the mock, the receiver and the checks. */
export * from './header-names.js';
export * from './service-signature.js';
export * from './hotel-signature.js';
