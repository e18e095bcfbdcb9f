import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { nestsDeeperThan } from '../files/nesting-depth.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { DEFAULT_PROFILE } from '../profile/defaults.js';
import type { Profile } from '../profile/index.js';
import { expansionProblems } from './_internal/expansion.js';
import { validateScenario } from './_internal/validate.js';
import type { Scenario } from './types.js';

/** Largest scenario file read: the shipped ones hold a few kilobytes. */
const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

/**
 * Most aliases a scenario's YAML may expand (yaml's `maxAliasCount`): a few
 * anchors spare repeating a body, and a "billion laughs" file is refused
 * before it is expanded.
 */
const MAX_SCENARIO_ALIASES = 100;

/** Deepest nesting of flow collections a scenario's YAML may have (the shipped ones nest three or four). */
const MAX_SCENARIO_NESTING = 64;

/** A parsed document as plain data; an alias bomb or a nesting too deep for the parser is a problem of the file. */
function scenarioData(text: string, file: string): unknown {
  const invalid = (why: string): HarnessError => new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${file}: ${why}`);
  if (nestsDeeperThan(text, MAX_SCENARIO_NESTING)) throw invalid(`YAML nests deeper than ${MAX_SCENARIO_NESTING} levels of [ ] or { }`);
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const msgs = doc.errors.map((e) => `${file}: YAML ${e.message.split('\n')[0]}`);
    throw new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${msgs.join('; ')}`);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_SCENARIO_ALIASES });
  } catch (err) {
    // yaml throws a ReferenceError for an alias count past the bound, and for an alias to nothing.
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw invalid(
        /excessive/i.test(err.message) ? `YAML aliases expand past the bound of ${MAX_SCENARIO_ALIASES} (maxAliasCount)` : `YAML ${err.message.split('\n')[0]}`,
      );
    }
    if (err instanceof RangeError) throw invalid('YAML nests too deeply to be read');
    throw err;
  }
}

/**
 * Parses and validates one scenario's YAML text; every problem is named as
 * `<file>: <step path>: <message>` in one `E_SCENARIO_INVALID` error. A
 * scenario whose repeats expand past `MAX_EXPANDED_STEPS` steps or
 * `MAX_EXPANDED_BODY_BYTES` bytes of bodies is invalid too.
 */
export function parseScenario(text: string, file: string, profile: Profile = DEFAULT_PROFILE): Scenario {
  const data = scenarioData(text, file);
  let result: ReturnType<typeof validateScenario>;
  try {
    result = validateScenario(data, file, profile);
  } catch (err) {
    if (err instanceof RangeError) throw new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${file}: steps nest too deeply to be read`);
    throw err;
  }
  const { scenario } = result;
  const problems = scenario ? expansionProblems(scenario.steps) : result.problems;
  if (!scenario || problems.length > 0) {
    throw new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${problems.map((p) => `${file}: ${p}`).join('; ')}`);
  }
  return scenario;
}

/** Reads (a regular file of at most {@link MAX_SCENARIO_FILE_BYTES}), parses and validates one scenario file. */
export async function loadScenarioFile(path: string, profile: Profile = DEFAULT_PROFILE): Promise<Scenario> {
  const bytes = await readRegularFile(path, { maxBytes: MAX_SCENARIO_FILE_BYTES, what: 'scenario' });
  return parseScenario(bytes.toString('utf8'), path, profile);
}

/** The scenarios shipped with the harness (`scenarios/` beside package.json). */
function defaultScenarioDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return join(dir, 'scenarios');
    dir = dirname(dir);
  }
  return resolve('scenarios');
}

/** Loads the named files, or every `*.yaml`/`*.yml` of `dir` (default: the shipped scenarios) in name order; the first invalid file throws. */
export async function loadScenarios(
  opts: { files?: string[] | undefined; dir?: string | undefined } = {},
  profile: Profile = DEFAULT_PROFILE,
): Promise<Scenario[]> {
  let files = opts.files;
  if (!files || files.length === 0) {
    const dir = opts.dir ?? defaultScenarioDir();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      throw new HarnessError('E_FILE_UNREADABLE', `cannot read scenario folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
    }
    files = names
      .filter((n) => /\.ya?ml$/i.test(n))
      .sort()
      .map((n) => join(dir, n));
  }
  const out: Scenario[] = [];
  for (const f of files) out.push(await loadScenarioFile(f, profile));
  const seen = new Map<string, string>();
  for (const s of out) {
    const prev = seen.get(s.name);
    if (prev) throw new HarnessError('E_SCENARIO_INVALID', `scenario name "${s.name}" is used by both ${prev} and ${s.file}`);
    seen.set(s.name, s.file);
  }
  return out;
}
