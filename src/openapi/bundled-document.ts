import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors/harness-error.js';

/** The bundled document: YAML is the source people edit, JSON its generated twin (`npm run openapi:json`) that code reads. */
const FILES = { yaml: join('openapi', 'reference-api.yaml'), json: join('openapi', 'reference-api.json') } as const;

let root: string | undefined;

function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, FILES.yaml))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new HarnessError('E_INTERNAL', `the bundled ${FILES.yaml} is missing from the package`);
    dir = up;
  }
}

/**
 * Absolute path of the bundled OpenAPI document of the reference API, as
 * YAML (the source) or JSON (generated from it; parsing it is a thousand
 * times cheaper than the YAML). Found by walking up from this module to the
 * package root, so it works from `src/` (tests), from `dist/src/` (the built
 * CLI) and from an installed package, whatever the working directory.
 */
export function bundledOpenApiPath(form: 'yaml' | 'json' = 'json'): string {
  return join(packageRoot(), FILES[form]);
}
