#!/usr/bin/env node
// One shard of the Indexed Job in load-indexed-job.yaml, as the pod's first
// process (exec form: no shell in between). It runs
//   svc-harness load <its arguments> --shard <JOB_COMPLETION_INDEX+1>/<SHARDS> --report-dir <REPORT_DIR>
// passes SIGTERM and SIGINT on to the harness (which then writes the report
// of what ran, marked INTERRUPTED), and once the harness has exited prints its
// report.json to the log between two marker lines, gzipped and in base64
// lines of 76 characters, so that `kubectl logs` carries it out of the pod
// with no shared volume: extract-reports.mjs turns the logs back into files.
//
// Exit status: 0 when the harness judged the load and wrote its report
// (0 passed, 1 a verdict under load failed, 99 a gate broke; the merge of all
// shards gives the verdict), otherwise the harness's own status, so that the
// Job fails and `kubectl wait` ends.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The first and last line around a shard's report in its log. */
export const BEGIN = '----- svc-harness report.json (gzip, base64) shard';
export const END = '----- end of svc-harness report.json';

/** Statuses of a load that judged and wrote its report. */
const JUDGED = [0, 1, 99];

/** The harness's arguments for this pod: the Job's, then its shard and report folder. */
export function shardArgs(argv, env) {
  const index = Number(env.JOB_COMPLETION_INDEX);
  const count = Number(env.SHARDS);
  if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || index >= count) {
    throw new Error(`JOB_COMPLETION_INDEX (${env.JOB_COMPLETION_INDEX}) and SHARDS (${env.SHARDS}) must be 0 ≤ index < count`);
  }
  return {
    shard: `${index + 1}/${count}`,
    reportDir: env.REPORT_DIR ?? '/reports',
    args: ['load', ...argv, '--shard', `${index + 1}/${count}`, '--report-dir', env.REPORT_DIR ?? '/reports'],
  };
}

/** The log lines that carry `json` (a report.json's text) for shard `shard` (i/N). */
export function reportLines(shard, json) {
  const encoded = gzipSync(json).toString('base64');
  return [`${BEGIN} ${shard}`, ...(encoded.match(/.{1,76}/g) ?? []), END];
}

function main() {
  const { shard, reportDir, args } = shardArgs(process.argv.slice(2), process.env);
  // The built CLI of the image; SVC_HARNESS_COMMAND (a JSON array) names another, e.g. the sources in a checkout without dist/.
  const [command, ...pre] = process.env.SVC_HARNESS_COMMAND
    ? JSON.parse(process.env.SVC_HARNESS_COMMAND)
    : [process.execPath, fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))];
  const harness = spawn(command, [...pre, ...args], { stdio: 'inherit' });
  // Kubernetes stops a pod with SIGTERM to its first process: this one. The harness gets it too and writes what ran.
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => harness.kill(signal));
  harness.on('exit', (code, signal) => {
    const status = code ?? 128 + (signal === 'SIGINT' ? 2 : 15);
    try {
      const json = readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8');
      process.stdout.write(`${reportLines(shard, json).join('\n')}\n`);
    } catch {
      process.stderr.write(`shard ${shard}: no report to print (the harness exited ${status})\n`);
    }
    process.exitCode = JUDGED.includes(status) ? 0 : status;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
