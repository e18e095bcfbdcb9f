import { EXIT } from './exit-codes.js';
import { SignalLatch } from './signal-latch.js';

/*
 * main's first import, so that it runs before any other module of the CLI
 * loads (a busy machine spent seconds there, and a signal meanwhile met the
 * default handling: no word, no report, no exit status of ours).
 */

/** The process's signal latch: it handles SIGINT and SIGTERM from here on. */
export const earlySignals = new SignalLatch((signal) => {
  process.stderr.write(`\nsvc-harness: ${signal} received, quitting\n`);
  process.exit(signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED);
}).install();
