#!/usr/bin/env node
// Turns the logs of the shards of load-indexed-job.yaml back into report files:
//   kubectl logs -l job-name=svc-harness-load --tail=-1 --max-log-requests 64 > shards.log
//   node examples/k8s/extract-reports.mjs shards.log reports/k8s
// writes reports/k8s/shard-<i>/report.json for every shard found in the log
// (shard.mjs printed each between marker lines), ready for
//   svc-harness report merge reports/k8s/shard-*/report.json -o reports/k8s/merged
// Lines of other pods or tools in between are skipped; an unfinished report is an error.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const BEGIN = '----- svc-harness report.json (gzip, base64) shard';
const END = '----- end of svc-harness report.json';

/** Every report in `log`, by shard (i/N), as the text of its report.json. */
export function extractReports(log) {
  const found = new Map();
  let shard;
  let chunks = [];
  for (const raw of log.split(/\r?\n/)) {
    // `kubectl logs --prefix` puts `[pod/…/container] ` before each line.
    const line = raw.replace(/^\[[^\]]*\] /, '').trim();
    if (line.startsWith(BEGIN)) {
      shard = line.slice(BEGIN.length).trim();
      chunks = [];
    } else if (line === END && shard !== undefined) {
      found.set(shard, gunzipSync(Buffer.from(chunks.join(''), 'base64')).toString('utf8'));
      shard = undefined;
    } else if (shard !== undefined && /^[A-Za-z0-9+/=]+$/.test(line)) chunks.push(line);
  }
  if (shard !== undefined) throw new Error(`the report of shard ${shard} is cut off in the log`);
  return found;
}

function main() {
  const [file, outDir = 'reports/k8s'] = process.argv.slice(2);
  if (!file) throw new Error('usage: extract-reports.mjs <kubectl logs output> [out dir]');
  const reports = extractReports(readFileSync(file, 'utf8'));
  if (reports.size === 0) throw new Error(`no shard report found in ${file}`);
  for (const [shard, json] of reports) {
    const dir = join(outDir, `shard-${shard.split('/')[0]}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.json'), json);
    process.stdout.write(`${join(dir, 'report.json')} (shard ${shard})\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
