import type { CommandModule } from 'yargs';
import { mockCommand } from './mock.js';
import { runCommand } from './run.js';
import { scenarioCommand } from './scenario.js';

/**
 * Every CLI command. Each module keeps its options here and lazily imports
 * its implementation in the handler, so `--help` stays fast.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: CommandModule<any, any>[] = [
  mockCommand,
  runCommand,
  scenarioCommand,
];
