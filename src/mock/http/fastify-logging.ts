import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';

/**
 * Fastify's logging options for one of the mock's listeners: off when no
 * logger is given or it would drop info lines (the hot path then pays
 * nothing), else every request and its completion, with the listener's name.
 * The request serializer logs method, url and peer, never headers, so no
 * signature or API key reaches a log line.
 */
export function fastifyLogging(logger: Logger | undefined, listener: 'service' | 'hotel' | 'admin'): { logger: false } | { loggerInstance: FastifyBaseLogger } {
  if (!logger || !logger.isLevelEnabled('info')) return { logger: false };
  return { loggerInstance: logger.child({ listener }) as FastifyBaseLogger };
}
