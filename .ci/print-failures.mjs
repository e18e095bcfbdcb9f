// Prints, after a failed `npm test`, each failing test's file and name and the first lines of its error,
// from the JSON results vitest writes beside its usual output (vitest.config.ts): the end of a long CI log
// says what broke, even when the failure scrolled past hundreds of lines earlier.
import { readFileSync } from 'node:fs';

const LINES = 12;
const file = process.argv[2] ?? 'test-output/vitest-results.json';

let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log(`(no test results to summarise in ${file}: ${err instanceof Error ? err.message : String(err)})`);
  process.exit(0);
}

const cwd = `${process.cwd()}/`;
const failures = [];
for (const suite of results.testResults ?? []) {
  const where = String(suite.name ?? '').replace(cwd, '');
  const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
  for (const t of failed) failures.push({ where, name: t.fullName ?? t.title, messages: t.failureMessages ?? [] });
  // A file that failed to load or whose hooks threw has a message of its own and no failed test.
  if (failed.length === 0 && suite.status === 'failed') failures.push({ where, name: '(the file itself)', messages: [suite.message ?? ''] });
}

if (failures.length === 0) {
  console.log('No failing test in the results: the failure came before or after the tests (build, type check or lint above).');
  process.exit(0);
}
console.log(`\n${failures.length} failing test(s):`);
for (const f of failures) {
  console.log(`\n✗ ${f.where} › ${f.name}`);
  const lines = f.messages
    .join('\n')
    .split('\n')
    .filter((l) => l.trim() !== '' && !/node_modules\/|\(<anonymous>\)|node:internal/.test(l));
  for (const line of lines.slice(0, LINES)) console.log(`    ${line}`);
  if (lines.length > LINES) console.log(`    … ${lines.length - LINES} more line(s)`);
}
