/** The bundled mock of the Travel B2B Distribution Service: its public API. */
export { createMock, type AgencyCredentials, type RunningMock } from './create-mock.js';
export { type MockOptions } from './options.js';
export { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
export { type Fixture } from './fixture/fixture-types.js';
export type { PipelineInterceptor, InterceptContext } from './http/interceptor.js';
export type { WireRequest, WireResponse } from './http/wire.js';
