#!/usr/bin/env node
// Turns the JSON line of `svc-harness mock --json` into the environment the
// reference profile (profiles/reference.yaml) reads its secrets from, one
// NAME=value line per variable: append it to $GITHUB_ENV, or source it with
// `set -a; . ./mock.env; set +a` in a shell.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'mock.json';
const mock = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]);
const fields = { secret: 'SECRET', webhook_secret: 'WEBHOOK_SECRET', hotel_api_key: 'HOTEL_API_KEY', hotel_webhook_secret: 'HOTEL_WEBHOOK_SECRET' };
for (const a of mock.agencies) {
  const name = a.agency_id
    .replace(/^agency-/, '')
    .replace(/[^A-Za-z0-9]/g, '_')
    .toUpperCase();
  for (const [key, suffix] of Object.entries(fields)) if (a[key]) process.stdout.write(`SVC_AGENCY_${name}_${suffix}=${a[key]}\n`);
}
