import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { bundledOpenApiPath } from '../../src/openapi/bundled-document.js';
import { bundledOpenApiDocument, loadOpenApiDocument } from '../../src/openapi/load-document.js';
import { loadProfile } from '../../src/profile/load-profile.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('loading an OpenAPI document', () => {
  test('no source is the bundled document; a file is read as YAML or JSON', async () => {
    expect(await loadOpenApiDocument(null)).toBe(bundledOpenApiDocument());
    expect(await loadOpenApiDocument(bundledOpenApiPath('yaml'))).toEqual(bundledOpenApiDocument());
    expect(await loadOpenApiDocument(bundledOpenApiPath('json'))).toEqual(bundledOpenApiDocument());
  });

  test('a missing file or a file that is no OpenAPI document is one message naming it', async () => {
    await expect(loadOpenApiDocument('/no/such/openapi.yaml')).rejects.toThrow('cannot read OpenAPI document /no/such/openapi.yaml: no such file');
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'x.yaml'), 'name: not a document\n');
    await expect(loadOpenApiDocument(path.join(dir, 'x.yaml'))).rejects.toThrow(/is not an OpenAPI 3 document/);
  });

  test("a profile's relative openapi file is relative to the profile, and must be a string", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-profile-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'p.yaml'), 'openapi: docs/api.yaml\n');
    expect((await loadProfile(path.join(dir, 'p.yaml'))).openapi).toBe(path.join(dir, 'docs', 'api.yaml'));
    await writeFile(path.join(dir, 'u.yaml'), 'openapi: https://api.example/openapi.json\n');
    expect((await loadProfile(path.join(dir, 'u.yaml'))).openapi).toBe('https://api.example/openapi.json');
    await writeFile(path.join(dir, 'bad.yaml'), 'openapi: 5\n');
    await expect(loadProfile(path.join(dir, 'bad.yaml'))).rejects.toThrow(/openapi/);
  });
});
