import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the document sits inside the package. */
const RELATIVE = join('openapi', 'reference-api.yaml');

let found: string | undefined;

/**
 * Absolute path of the bundled OpenAPI document of the reference API.
 * Found by walking up from this module to the package root, so it works from
 * `src/` (tests), from `dist/src/` (the built CLI) and from an installed
 * package, whatever the working directory.
 */
export function bundledOpenApiPath(): string {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, RELATIVE);
    if (existsSync(candidate)) return (found = candidate);
    const up = dirname(dir);
    if (up === dir) throw new Error(`the bundled ${RELATIVE} is missing from the package`);
    dir = up;
  }
}
