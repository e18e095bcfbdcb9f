import type { CommandModule } from 'yargs';
import { certifyCommand } from './certify.js';
import { certifyClientCommand } from './certify-client.js';
import { loadCommand } from './load.js';
import { checksCommand } from './checks.js';
import { mockCommand } from './mock.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { scenarioCommand } from './scenario.js';
import { selftestCommand } from './selftest.js';
import { verifyCertificateCommand } from './verify-certificate.js';

/**
 * Every CLI command. Each module keeps its options here and lazily imports
 * its implementation in the handler, so `--help` stays fast.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: CommandModule<any, any>[] = [
  mockCommand,
  runCommand,
  checksCommand,
  scenarioCommand,
  certifyCommand,
  verifyCertificateCommand,
  loadCommand,
  reportCommand,
  certifyClientCommand,
  selftestCommand,
];
