import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { REDACTED } from './redacted.js';

/** Log levels, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** A log level name. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where and how logs are written. */
interface LoggerOptions {
  /** @defaultValue 'warn' */
  level?: LogLevel;
  /** `json` (one object per line, for machines) or `pretty` (for a person at a terminal). @defaultValue 'json' */
  format?: 'json' | 'pretty';
  /** File descriptor to write to. @defaultValue 2 (stderr: stdout stays for results) */
  fd?: number;
  /** Applied to each line before it is written: secrets a target echoed (in a header, a message) are cut out of any field, not only the paths below. */
  redactLine?: (line: string) => string;
}

/**
 * Paths whose values are secrets wherever they appear in a log object: the
 * signature header and the API key of requests, and credential fields.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.secret',
  '*.webhook_secret',
  '*.hotel_api_key',
  '*.hotel_webhook_secret',
  'secret',
  'webhook_secret',
  'hotel_api_key',
  'hotel_webhook_secret',
];

/** The harness's logger: pino, JSON by default, readable on a terminal, secrets redacted. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? 'warn';
  const fd = opts.fd ?? 2;
  const redact = { paths: REDACTED_PATHS, censor: REDACTED };
  const hooks = opts.redactLine ? { streamWrite: opts.redactLine } : {};
  if (opts.format === 'pretty') {
    // pino-pretty as a synchronous stream: no worker thread, nothing left behind at exit.
    return pino(
      { level, redact, base: null, hooks },
      pinoPretty({ destination: fd, sync: true, colorize: false, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
    );
  }
  return pino({ level, redact, base: null, hooks }, pino.destination({ fd, sync: true }));
}

/** A logger that writes nothing (the default of library calls). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
