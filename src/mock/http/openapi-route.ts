import type { FastifyInstance } from 'fastify';
import { bundledOpenApiDocument } from '../../openapi/load-document.js';
import { newRequestId } from './request-id.js';
import { JSON_TYPE } from './error-response.js';

/** Where the service port serves its OpenAPI document: outside `/v1`, without signing. */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

let json: string | undefined;

/**
 * Serves the bundled OpenAPI document as JSON at `GET /openapi.json`, so that
 * a viewer or a client generator can read it from the running mock. Every
 * other path stays with the pipeline (an unknown one is still a 404 in the
 * envelope).
 */
export function installOpenApiRoute(app: FastifyInstance): void {
  app.get(OPENAPI_DOCUMENT_PATH, (_request, reply) => {
    // Built on first use: the YAML is parsed once per process, not at every mock start.
    json ??= JSON.stringify(bundledOpenApiDocument());
    // Viewers served from another origin (Swagger UI, Redoc) fetch it from the browser.
    reply.code(200).headers({ 'content-type': JSON_TYPE, 'x-request-id': newRequestId(), 'access-control-allow-origin': '*' }).send(json);
  });
}
