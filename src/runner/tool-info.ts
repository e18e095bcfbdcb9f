import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { name: string; version: string; node: string } | undefined;

/** The harness's name and version (from its package.json, found upward from this file, built or not) and the Node version. */
export function toolInfo(): { name: string; version: string; node: string } {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  let version = '0.0.0';
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc-harness') {
        version = pkg.version ?? version;
        break;
      }
    } catch {
      // not here: look one level up
    }
    dir = dirname(dir);
  }
  cached = { name: 'svc-harness', version, node: process.version };
  return cached;
}
