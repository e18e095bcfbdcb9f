import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandLine, shellWord } from '../../src/cli/command-line.js';

describe('the command line a report records', () => {
  const argv = [
    'load',
    '--threshold',
    'search.p95<200ms',
    '--threshold',
    'rps>=500',
    '--scenario',
    "it's here.yaml",
    '--report-dir',
    '/tmp/r',
    '--only',
    'RL-01,auth',
    '$HOME',
    '',
  ];

  it('quotes every word a POSIX shell would not take literally', () => {
    expect(commandLine(argv)).toBe(
      `svc-harness load --threshold 'search.p95<200ms' --threshold 'rps>=500' --scenario 'it'\\''s here.yaml' --report-dir /tmp/r --only RL-01,auth '$HOME' ''`,
    );
    expect(shellWord('--duration')).toBe('--duration');
  });

  it('gives back the same arguments when pasted into sh', () => {
    const words = commandLine(argv).split(' ').slice(1).join(' ');
    const echoed = spawnSync('sh', ['-c', `for a in ${words}; do printf '[%s]' "$a"; done`], { encoding: 'utf8' });
    expect(echoed.stdout).toBe(argv.map((a) => `[${a}]`).join(''));
    const counted = spawnSync('sh', ['-c', `set -- ${words}; echo $#`], { encoding: 'utf8' });
    expect(counted.stdout.trim()).toBe(String(argv.length));
  });
});
