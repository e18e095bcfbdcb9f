import type { Logger } from 'pino';
import { silentLogger } from './logger.js';

let current: Logger = silentLogger();

/** The logger of this process: silent for library use, set by the CLI from `--log-level` and `--log-format`. */
export function logger(): Logger {
  return current;
}

/** Sets the logger of this process (the CLI does, once, before a command runs). */
export function useLogger(l: Logger): void {
  current = l;
}
