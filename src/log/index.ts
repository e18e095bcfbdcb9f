export { REDACTED } from './redacted.js';
export { createLogger, silentLogger, LOG_LEVELS, REDACTED_PATHS, type LogLevel, type LoggerOptions } from './logger.js';
export { logger, useLogger } from './current-logger.js';
export { terminalSafe, type TerminalSafeOptions } from './terminal-safe.js';
