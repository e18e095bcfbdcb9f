import type { RunningMock } from './create-mock.js';
import type { MockOptions } from './options.js';

/** The bundled mock of the Travel B2B Distribution Service: its public API. */
export type { AgencyCredentials, RunningMock } from './create-mock.js';
export type { MockOptions } from './options.js';
export { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
export type { Fixture } from './fixture/fixture-types.js';
export type { PipelineInterceptor, InterceptContext } from './http/interceptor.js';
export type { WireRequest, WireResponse } from './http/wire.js';

/**
 * Starts the mock (see `create-mock.ts`). The server and fastify load with
 * the first call: a command that only reads the mock's fixture or types (a
 * load against a service in another process) never compiles them.
 */
export async function createMock(options: MockOptions = {}): Promise<RunningMock> {
  const { createMock: start } = await import('./create-mock.js');
  return start(options);
}
