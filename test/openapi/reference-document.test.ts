import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import { PRODUCTS } from '../../src/mock/fixture/fixture-types.js';
import { HOTEL_ROUTES } from '../../src/mock/hotel/hotel-app.js';
import { OPENAPI_DOCUMENT_PATH } from '../../src/mock/http/openapi-route.js';
import { matchRoute, SERVICE_ROUTES } from '../../src/mock/http/route-table.js';
import { bundledOpenApiPath } from '../../src/openapi/bundled-document.js';
import { bundledOpenApiDocument } from '../../src/openapi/load-document.js';
import { OperationIndex } from '../../src/openapi/operation-index.js';

const yamlDoc = parseYaml(readFileSync(bundledOpenApiPath('yaml'), 'utf8'), { maxAliasCount: -1 }) as Record<string, unknown>;

/** `METHOD path` with `{product}` spelled out per product and every other parameter written `{}`. */
function expand(method: string, template: string): string[] {
  const products = template.includes('{product}') ? PRODUCTS : [undefined];
  return products.map((p) => `${method.toUpperCase()} ${(p ? template.replace('{product}', p) : template).replace(/\{[^}]+\}/g, '{}')}`);
}

describe('openapi/reference-api.yaml', () => {
  test('is a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(yamlDoc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(yamlDoc.openapi).toBe('3.1.0');
    expect(Object.keys(yamlDoc.webhooks as object).sort()).toEqual([
      'booking.cancelled',
      'booking.confirmed',
      'hotel.booking.cancelled',
      'hotel.booking.confirmed',
    ]);
  });

  test('its JSON twin, which the harness and the mock read, is generated from it (npm run openapi:json)', () => {
    expect(bundledOpenApiDocument()).toEqual(yamlDoc);
  });

  test('names every route of the mock, and every operation it names is a route of the mock', () => {
    const documented = new Set(new OperationIndex(bundledOpenApiDocument()).operations.flatMap((o) => expand(o.method, o.name.slice(o.method.length + 1))));
    const mock = new Set([
      ...SERVICE_ROUTES.flatMap((r) => expand(r.method, r.path)),
      ...HOTEL_ROUTES.flatMap((r) => r.methods.flatMap((m) => expand(m, r.path))),
      `GET ${OPENAPI_DOCUMENT_PATH}`,
    ]);
    expect(
      [...mock].filter((r) => !documented.has(r)),
      'routes of the mock missing from the document',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !mock.has(r)),
      'operations of the document the mock does not have',
    ).toEqual([]);
  });

  test('the route table lists exactly the routes the service matches', () => {
    for (const route of SERVICE_ROUTES) {
      for (const line of expand(route.method, route.path)) {
        const path = line.slice(route.method.length + 1).replace('{}', 'bk_1');
        const m = matchRoute(route.method, path);
        expect(m && 'route' in m ? m.route : m, line).toBe(route);
      }
    }
  });
});

describe('GET /openapi.json on the service port', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await createMock({ port: 0, hotelPort: 0 });
  });
  afterAll(async () => mock.close());

  test('serves the document as JSON, unsigned; any other path stays with the service pipeline (unsigned: 401 in the envelope)', async () => {
    const origin = new URL(mock.baseUrl).origin;
    const res = await fetch(`${origin}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(yamlDoc);
    const other = await fetch(`${origin}/openapi.yaml`);
    expect(other.status).toBe(401);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });
});
