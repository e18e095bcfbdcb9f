import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { DEFAULT_PROFILE } from '../profile/defaults.js';
import type { Profile } from '../profile/types.js';
import { validateScenario } from './_internal/validate.js';
import type { Scenario } from './types.js';

/**
 * Parses and validates one scenario's YAML text; every problem is named as
 * `<file>: <step path>: <message>` in one `E_SCENARIO_INVALID` error.
 */
export function parseScenario(text: string, file: string, profile: Profile = DEFAULT_PROFILE): Scenario {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const msgs = doc.errors.map((e) => `${file}: YAML ${e.message.split('\n')[0]}`);
    throw new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${msgs.join('; ')}`);
  }
  const { scenario, problems } = validateScenario(doc.toJS(), file, profile);
  if (!scenario) {
    throw new HarnessError('E_SCENARIO_INVALID', `scenario ${file} is invalid: ${problems.map((p) => `${file}: ${p}`).join('; ')}`);
  }
  return scenario;
}

/** Reads, parses and validates one scenario file. */
export async function loadScenarioFile(path: string, profile: Profile = DEFAULT_PROFILE): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read scenario ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
  return parseScenario(text, path, profile);
}

/** The scenarios shipped with the harness (`scenarios/` beside package.json). */
export function defaultScenarioDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return join(dir, 'scenarios');
    dir = dirname(dir);
  }
  return resolve('scenarios');
}

/** Loads the named files, or every `*.yaml`/`*.yml` of `dir` (default: the shipped scenarios) in name order; the first invalid file throws. */
export async function loadScenarios(opts: { files?: string[] | undefined; dir?: string | undefined } = {}, profile: Profile = DEFAULT_PROFILE): Promise<Scenario[]> {
  let files = opts.files;
  if (!files || files.length === 0) {
    const dir = opts.dir ?? defaultScenarioDir();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      throw new HarnessError('E_FILE_UNREADABLE', `cannot read scenario folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
    }
    files = names.filter((n) => /\.ya?ml$/i.test(n)).sort().map((n) => join(dir, n));
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
