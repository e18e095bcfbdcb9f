export * from './signer.js';
export { MemoryRecorder, type Exchange, type ExchangeRecorder } from './exchange.js';
export { splitPathQuery } from './split-path-query.js';
export { ExchangeClient, type ExchangeClientOptions, type RawResponse, type WireRequest } from './exchange-client.js';
export { ServiceClient, createServiceClient, signingHeaders, type ServiceClientOptions, type ServiceRequest, type SigningHeadersInput, type SigningOverrides } from './service-client.js';
export { HotelClient, createHotelClient, type HotelClientOptions, type HotelRequest } from './hotel-client.js';
export { createSigningInterceptor, type SigningInterceptorOptions } from './signing-interceptor.js';
export { hasRateLimitHeaders, parseNonNegativeInt, parseRateLimit, parseRetryAfter, type RateLimitHeaderNames } from './rate-limit.js';
