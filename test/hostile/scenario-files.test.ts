/*
 * Hostile scenario files: each is refused at load time with E_SCENARIO_INVALID
 * or E_FILE_UNREADABLE (exit 2) naming the file and the bound, before any
 * memory or time is spent on what it would expand to.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { loadScenarioFile } from '../../src/scenario/index.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hostile-scenarios-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The error loading `path` throws (the test fails when it loads). */
async function refusal(path: string): Promise<HarnessError> {
  try {
    await loadScenarioFile(path);
  } catch (err) {
    expect(err).toBeInstanceOf(HarnessError);
    return err as HarnessError;
  }
  throw new Error(`${path} loaded`);
}

/** A "billion laughs": nine levels of ten aliases each. */
function laughs(): string {
  const lines = ['name: laughs', 'steps:', '  - set:', '      a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 10; i++) lines.push(`      a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
}

describe('hostile scenario files', () => {
  it('an alias bomb exits 2 naming the alias bound (it crashed with exit 70)', async () => {
    const path = await fileOf('laughs.yaml', laughs());
    const run = await runCli(['scenario', path]);
    expect(run.stderr).toContain(path);
    expect(run.stderr).toContain('maxAliasCount');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(2);
  });

  it('a few aliases still load', async () => {
    const path = await fileOf('few-aliases.yaml', 'name: few\nsteps:\n  - set: &s { a: 1 }\n  - set: *s\n');
    await expect(loadScenarioFile(path)).resolves.toMatchObject({ name: 'few' });
  });

  it('repeats nested 1000×1000×1000 are refused at load time, naming the step bound', async () => {
    const nested = (depth: number, pad: string): string =>
      depth === 0 ? `${pad}- account:\n` : `${pad}- repeat:\n${pad}    count: 1000\n${pad}    steps:\n${nested(depth - 1, `${pad}      `)}`;
    const path = await fileOf('repeats.yaml', `name: repeats\nsteps:\n${nested(3, '  ')}`);
    const err = await refusal(path);
    expect(err.code).toBe('E_SCENARIO_INVALID');
    expect(err.message).toContain(path);
    expect(err.message).toMatch(/1001001001 steps, over the bound of 2000/);
  });

  it('a body repeated past the byte bound is refused, naming it', async () => {
    const body = 'y'.repeat(60 * 1024);
    const path = await fileOf(
      'body-repeat.yaml',
      `name: bodies\nproduct: flights\nsteps:\n  - repeat:\n      count: 1000\n      steps:\n        - book:\n            quote: q\n            body: "${body}"\n`,
    );
    const err = await refusal(path);
    expect(err.code).toBe('E_SCENARIO_INVALID');
    expect(err.message).toMatch(/"body" texts come to 61440000 bytes .* over the bound of 1048576 bytes/);
  });

  it('a file larger than the file bound is refused before it is read', async () => {
    const path = await fileOf(
      'big-body.yaml',
      `name: big\nproduct: flights\nsteps:\n  - book:\n      quote: q\n      body: "${'x'.repeat(2 * 1024 * 1024)}"\n`,
    );
    const err = await refusal(path);
    expect(err.code).toBe('E_FILE_UNREADABLE');
    expect(err.message).toMatch(/more than the 1 MiB accepted/);
  });

  it('flow collections nested 200 000 deep are refused before the YAML parser sees them', async () => {
    const path = await fileOf('deep.yaml', `name: deep\nsteps: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`);
    const err = await refusal(path);
    expect(err.code).toBe('E_SCENARIO_INVALID');
    expect(err.message).toMatch(/nests deeper than 64 levels/);
  });

  it('a FIFO is refused at once (reading it blocked forever)', { timeout: 5_000 }, async () => {
    const path = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [path]);
    const err = await refusal(path);
    expect(err.code).toBe('E_FILE_UNREADABLE');
    expect(err.message).toMatch(/FIFO.*not a regular file/);
  });

  it('a link to /dev/zero is refused', { timeout: 5_000 }, async () => {
    const path = join(dir, 'zero.yaml');
    execFileSync('ln', ['-s', '/dev/zero', path]);
    const err = await refusal(path);
    expect(err.code).toBe('E_FILE_UNREADABLE');
    expect(err.message).toMatch(/a device, not a regular file/);
  });
});
