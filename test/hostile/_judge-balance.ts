/*
 * Judges one wallet-balance answer against the bundled document with the
 * currency's schema replaced, and prints SC-01's outcome as JSON: run in a
 * child process, so that a test can stop a judge that hangs.
 * Arguments: the currency schema as JSON, the currency value.
 */
import { judgeResponsesConform } from '../../src/checks/schema/responses-conform.js';
import { bundledOpenApiDocument, type OpenApiDocument } from '../../src/openapi/load-document.js';
import { ResponseValidator } from '../../src/openapi/response-validator.js';
import { answer, P } from '../checks/_fixtures.js';

const [schema, currency] = process.argv.slice(2);
const doc = structuredClone(bundledOpenApiDocument()) as Record<string, any>;
doc.components.schemas.WalletBalance.properties.currency = JSON.parse(schema!);
const headers = { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-reset': '0', 'x-ratelimit-resource': 'read' };
const x = answer(200, { currency, balance: 5, as_of: '2027-01-01T10:15:00.000Z' }, { method: 'GET', url: `${P.base_url}/wallet/balance`, headers }).exchange;
process.stdout.write(JSON.stringify(judgeResponsesConform([x], new ResponseValidator(doc as OpenApiDocument))));
