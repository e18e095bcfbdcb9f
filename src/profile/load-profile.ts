import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { withoutExcerpt } from '../errors/parser-message.js';
import { profileSecrets, rememberSecrets } from './known-secrets.js';
import { nestsDeeperThan } from '../files/nesting-depth.js';
import { readRegularFile } from '../files/read-regular-file.js';
import type { Profile } from './types.js';
import { resolveProfile } from './validate-profile.js';
import { isTargetUrl, profileFromUrl } from './url-profile.js';

/** Largest profile file read: the complete reference profile holds some 10 KB. */
const MAX_PROFILE_BYTES = 1024 * 1024;
/** Deepest nesting of `[ ]` and `{ }` in a profile (request body templates nest a few levels). */
const MAX_PROFILE_NESTING = 64;

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Parses profile text: JSON for `.json` files, YAML otherwise (YAML also reads JSON). */
function parseProfileText(text: string, file: string): unknown {
  try {
    return extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new HarnessError('E_FILE_UNREADABLE', `cannot parse target profile ${file}: ${oneLine(withoutExcerpt(msg))}`, { cause: err });
  }
}

/**
 * Reads a YAML or JSON target profile, merges it over the reference defaults
 * and validates it; the result is frozen. An http(s) URL stands for the
 * reference defaults at that address (see {@link profileFromUrl}).
 */
export async function loadProfile(file: string): Promise<Readonly<Profile>> {
  if (isTargetUrl(file)) {
    const fromUrl = resolveProfile(profileFromUrl(file), file);
    rememberSecrets(profileSecrets(fromUrl));
    return fromUrl;
  }
  let text: string;
  try {
    text = (await readRegularFile(file, { maxBytes: MAX_PROFILE_BYTES, what: 'target profile' })).toString('utf8');
  } catch (err) {
    // The common mistakes in plain words; the rest (a FIFO, a device, a size) as the reader says them.
    const code = ((err as { cause?: { code?: string } }).cause ?? {}).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : undefined;
    // A target is a profile file or the service's URL; say so where the name was neither.
    const hint = code === 'ENOENT' ? ' (--target takes a profile file, YAML or JSON, such as profiles/staging.yaml, or the http(s) URL of the service)' : '';
    if (why) throw new HarnessError('E_FILE_UNREADABLE', `cannot read target profile ${file}: ${why}${hint}`, { cause: err });
    throw err;
  }
  if (nestsDeeperThan(text, MAX_PROFILE_NESTING))
    throw new HarnessError('E_FILE_UNREADABLE', `cannot parse target profile ${file}: it nests deeper than ${MAX_PROFILE_NESTING} levels of [ ] or { }`);
  const profile = resolveProfile(withOpenApiBesideProfile(parseProfileText(text, file), file), file);
  // Known from here on: the console, the logs and every report redact them, whichever agency a command works for.
  rememberSecrets(profileSecrets(profile));
  return profile;
}

/** A relative `openapi:` file is relative to the profile file, not to the working directory. */
function withOpenApiBesideProfile(input: unknown, file: string): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const o = input as Record<string, unknown>;
  const doc = o.openapi;
  if (typeof doc !== 'string' || doc === '' || /^https?:\/\//i.test(doc) || isAbsolute(doc)) return input;
  return { ...o, openapi: resolve(dirname(file), doc) };
}
