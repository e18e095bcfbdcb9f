export type { ApiResponse, CallOptions, HotelApi, Offer, RateLimitInfo, StatementEntry, TargetApi } from './types.js';
export { createTargetApi, uniqueClientReference, type ClosableTargetApi, type TargetApiOptions } from './target-api.js';
export { createHotelApi, type ClosableHotelApi, type HotelApiOptions } from './hotel-api.js';
export { fillPath, getArray, getField, getNumber, getString, setTemplate } from './fields.js';
export { agencyApis, type AgencyApis, type AgencyApisOptions } from './agency-apis.js';
export { probeTarget, type ProbeAnswer } from './probe-target.js';
