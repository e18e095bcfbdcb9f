import type { Logger } from 'pino';
import type { RunEvent, RunListener } from './run-events.js';

/**
 * Writes run events to the diagnostic log: what a check says while it works
 * at debug, each case's start at debug and its verdict at info, plans, waits
 * and notes at info. Progress lines for a person stay with the printer.
 */
export function logEvents(log: Logger): RunListener {
  return (event: RunEvent) => {
    switch (event.type) {
      case 'log':
        log.debug({ case: event.id }, event.message);
        break;
      case 'case-started':
        log.debug({ case: event.id, kind: event.kind, ...(event.agencies ? { agencies: event.agencies } : {}) }, `started: ${event.title}`);
        break;
      case 'case-finished': {
        const r = event.result;
        log.info({ case: r.id, verdict: r.verdict, ms: r.durationMs, evidence: r.evidence.length }, r.message);
        break;
      }
      case 'plan':
        log.info({ mode: event.mode, checks: event.checks, scenarios: event.scenarios, properties: event.properties, estimate_ms: event.estimateMs }, 'plan');
        break;
      case 'waiting':
        log.info({ ms: event.ms }, `waiting: ${event.reason}`);
        break;
      case 'note':
        log.info(event.message);
        break;
      case 'part-started':
        log.debug({ part: event.part }, 'part started');
        break;
    }
  };
}

/** One listener calling each of `listeners` in turn. */
export function allOf(...listeners: Array<RunListener | undefined>): RunListener {
  const list = listeners.filter((l): l is RunListener => l !== undefined);
  return (event) => {
    for (const l of list) l(event);
  };
}
