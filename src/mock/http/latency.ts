import type { FastifyInstance } from 'fastify';

/**
 * Makes a listener answer every request `ms` late, as a service in another
 * region would. A timer per request, so other requests are not held up; added
 * first, so that it delays every answer, refusals included.
 */
export function addLatency(app: FastifyInstance, ms: number): void {
  if (ms <= 0) return;
  app.addHook('onRequest', (_request, _reply, done) => {
    setTimeout(done, ms);
  });
}
