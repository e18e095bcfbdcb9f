/** The bundled mock of the Travel B2B Distribution Service: its public API. */
export { createMock, type AgencyCredentials, type RunningMock } from './create-mock.js';
export { resolveMockOptions, MOCK_DEFAULTS, CLI_PORTS, type MockOptions, type ResolvedMockOptions } from './options.js';
export { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
export { generateAgencies } from './fixture/generate-agencies.js';
export { loadFixture } from './fixture/load-fixture.js';
export { validateFixture } from './fixture/validate-fixture.js';
export { PRODUCTS, isProduct, type Fixture, type FixtureAgency, type Product, type RateLimits } from './fixture/fixture-types.js';
export { DefectSet } from './defects/defect-set.js';
export { DEFECTS, DEFECT_NAMES, type DefectName } from './defects/catalogue.js';
export type { PipelineInterceptor, InterceptContext } from './http/interceptor.js';
export type { WireRequest, WireResponse } from './http/wire.js';
export type { LoggedRequest } from './domain/request-log.js';
