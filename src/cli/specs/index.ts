import type { CommandSpec } from '../command-spec.js';
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
 * Every CLI command. Each spec keeps its options here and lazily imports
 * its command from `cli/commands/`, so `--help` stays fast.
 */
export const COMMANDS: readonly CommandSpec<never>[] = [
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
