import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on the oldest Node the project supports must print no engine
 * warning: every package the lock file installs accepts that Node (an
 * `overrides` entry in package.json pins a transitive one that would not).
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('the locked dependencies', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it(`accept the oldest supported Node (${oldest})`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
        return range && !semver.satisfies(oldest, range, { includePrerelease: true }) ? [`${path}@${entry.version} wants node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });

  it('include the light-my-request cookie override (fastify inject on Node 20)', () => {
    expect(lock.packages['node_modules/light-my-request/node_modules/cookie'] ?? lock.packages['node_modules/cookie']).toMatchObject({
      version: expect.stringMatching(/^1\./),
    });
  });
});
