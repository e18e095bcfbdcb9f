import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from '../../src/files/read-regular-file.js';
import { runCli } from '../helpers/run-cli.js';
import { fifo, put, shardReport, tempDir } from './_files.js';

const dir = tempDir('svc-hostile-read-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFile', () => {
  it('reads a regular file, through a symlink too', async () => {
    const file = put(dir, 'a.txt', 'hello');
    symlinkSync(file, path.join(dir, 'link.txt'));
    expect((await readRegularFile(path.join(dir, 'link.txt'), { maxBytes: 5 })).toString()).toBe('hello');
  });

  it.each([
    ['a FIFO, without blocking', () => fifo(dir, 'pipe'), /cannot read thing .*pipe: it is a named pipe \(FIFO\), not a regular file/],
    [
      'a symlink to /dev/zero, without reading it',
      () => {
        symlinkSync('/dev/zero', path.join(dir, 'zero'));
        return path.join(dir, 'zero');
      },
      /zero: it is a device, not a regular file/,
    ],
    [
      'a folder',
      () => {
        mkdirSync(path.join(dir, 'folder'));
        return path.join(dir, 'folder');
      },
      /folder: it is a folder, not a regular file/,
    ],
    ['a file over the cap', () => put(dir, 'big.txt', 'x'.repeat(11)), /big\.txt: it is 11 bytes, more than the 10 bytes accepted/],
    ['a missing file', () => path.join(dir, 'nope'), /nope: no such file/],
  ])('refuses %s with E_FILE_UNREADABLE (exit 2)', async (_what, make, message) => {
    const file = make();
    await expect(readRegularFile(file, { maxBytes: 10, what: 'thing' })).rejects.toMatchObject({
      code: 'E_FILE_UNREADABLE',
      exitCode: 2,
      message: expect.stringMatching(message),
    });
  });

  it('stops at the cap when a file holds more than its size says (/proc files say 0 bytes)', async () => {
    await expect(readRegularFile('/proc/self/status', { maxBytes: 16 })).rejects.toMatchObject({
      code: 'E_FILE_UNREADABLE',
      message: expect.stringMatching(/grew past the 16 bytes accepted/),
    });
  });
});

/** The CLI on one bad file: exit 2, one line naming the file and why. */
async function refused(args: string[], message: RegExp): Promise<void> {
  const run = await runCli(args);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(message);
}

/** Shard 2 of 2, good. */
function good2(): string {
  return put(dir, 'shard2.json', JSON.stringify(shardReport(2)));
}

describe('every file the user names is read only when it is a regular file of a bounded size', () => {
  const good = good2();

  it('report merge: a FIFO shard, a shard linked to /dev/zero, a 40 MB shard', async () => {
    await refused(
      ['report', 'merge', fifo(dir, 'shard-pipe.json'), good, '-o', path.join(dir, 'm1')],
      /cannot read load report .*shard-pipe\.json: it is a named pipe \(FIFO\)/,
    );
    symlinkSync('/dev/zero', path.join(dir, 'shard-zero.json'));
    await refused(['report', 'merge', path.join(dir, 'shard-zero.json'), good, '-o', path.join(dir, 'm2')], /shard-zero\.json: it is a device/);
    const big = path.join(dir, 'shard-big.json');
    writeFileSync(big, '');
    truncateSync(big, 40 * 1024 * 1024);
    await refused(['report', 'merge', big, good, '-o', path.join(dir, 'm3')], /shard-big\.json: it is 40 MiB, more than the 32 MiB accepted/);
  });

  it('load: a FIFO thresholds file and a FIFO baseline, before any load starts', async () => {
    await refused(
      ['load', '--thresholds', fifo(dir, 'gates.txt'), '--duration', '1', '--report-dir', path.join(dir, 'l1')],
      /cannot read thresholds file .*gates\.txt: it is a named pipe/,
    );
    await refused(
      ['load', '--baseline', fifo(dir, 'baseline.json'), '--duration', '1', '--report-dir', path.join(dir, 'l2')],
      /cannot read load report .*baseline\.json: it is a named pipe/,
    );
  });

  it('certify: a signing key that is a FIFO', async () => {
    await refused(
      ['certify', '--sign-key', fifo(dir, 'sign.pem'), '--report-dir', path.join(dir, 'c1')],
      /cannot read signing key .*sign\.pem: it is a named pipe/,
    );
  });
});

describe('files the harness finds in the report folder', () => {
  it('a latest.json that is a FIFO is left alone at once, the reports safe in their run folder', async () => {
    const reports = path.join(dir, 'fifo-pointer');
    mkdirSync(reports);
    fifo(reports, 'latest.json');
    await refused(
      ['report', 'merge', put(dir, 'p1.json', JSON.stringify(shardReport(1))), good2(), '-o', reports],
      /reports written to .*, but .*latest\.json was left alone: it holds other content/,
    );
  });
});
