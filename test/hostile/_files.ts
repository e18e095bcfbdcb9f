import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';
import type { CertificateDraft } from '../../src/certify/certificate/types.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { sampleLoadResult } from '../load/_load-result.js';

/** A fresh temporary folder. */
export function tempDir(prefix = 'svc-hostile-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Shard `index` of 2, as a report.json of `svc-harness load` would hold it. */
export function shardReport(index: 1 | 2, over: Partial<LoadResult> = {}): { runId: string; load: LoadResult } {
  const load = sampleLoadResult(20, { shards: [{ index, count: 2 }], startedAt: 1_000_000 + index, ...over });
  return { runId: `20260101T00000${index}Z-shard${index}`, load };
}

/** Writes `text` into `dir/name` and returns the path. */
export function put(dir: string, name: string, text: string | Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Makes a FIFO (named pipe) at `dir/name`: reading it blocks until someone writes. */
export function fifo(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

/** An HDR histogram of a range far beyond the harness's (1 µs to 2^53 µs), holding `values`. */
export function hugeRangeHistogram(values: number[]): string {
  const h = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: Number.MAX_SAFE_INTEGER,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 'packed',
    useWebAssembly: false,
  });
  for (const v of values) h.recordValue(v);
  return hdr.encodeIntoCompressedBase64(h);
}

/** An HDR cookie over a deflated payload that inflates to `bytes` zeros: a decompression bomb in a histogram field. */
export function histogramBomb(bytes: number): string {
  const payload = deflateSync(Buffer.alloc(bytes), { level: 9 });
  const head = Buffer.alloc(8);
  head.writeInt32BE(0x1c849314, 0);
  head.writeInt32BE(payload.length, 4);
  return Buffer.concat([head, payload]).toString('base64');
}

/** A GRANTED certificate anyone could write: every required test "passed", one evidence file. */
export const GRANTED_DRAFT: CertificateDraft = {
  kind: 'service',
  plan: { id: 'svc-agency-cert', version: '1.0.0', title: 'Agency certification' } as CertificateDraft['plan'],
  target: { base_url: 'http://127.0.0.1:1' },
  agency: 'agency-alpha',
  startedAt: Date.parse('2026-01-01T00:00:00Z'),
  finishedAt: Date.parse('2026-01-01T00:01:00Z'),
  tests: [
    {
      id: 'CERT-01',
      title: 'signed requests',
      required: true,
      verdict: 'PASS',
      message: 'fine',
      evidence: [{ name: '01-CERT-01.json', content: { ok: true } }],
    },
  ],
};
