/**
 * Prints the environment `bench/standin/profile.yaml` reads its secrets from,
 * one `export NAME=value` line per variable, from the stand-in's fixture
 * (`bench/standin/agencies.json`, or the file given).
 *
 *   eval "$(node --import tsx bench/standin/env.ts)"
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { standinEnv } from './_internal/standin-env.js';

const file = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'agencies.json');
for (const [name, value] of Object.entries(standinEnv(JSON.parse(readFileSync(file, 'utf8'))))) process.stdout.write(`export ${name}=${value}\n`);
