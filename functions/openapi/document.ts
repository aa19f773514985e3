import { serviceBase } from '../config/public-urls.ts';
import {
  OpenApiGeneratorV3,
  OpenAPIRegistry,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import type { OpenAPIObject } from 'openapi3-ts/oas30';
import type { Config } from '../config/env.ts';
import { loadSite } from '../config/site.ts';
import { deprecatedAliases } from '../operations/deprecation.ts';
import { MAX_QUERY_PARAMETERS } from '../http/query.ts';
import { OPERATIONS, type OperationId, type OperationSpec } from '../operations/operations.ts';
import { codeVariants, errorResponses } from './error-responses.ts';
import { nameComponents, taskResultSchemas } from './components.ts';
import {
  DEPRECATION_HEADERS,
  EVERY_OPERATION,
  EVERY_RESPONSE,
  headerRefs,
  parameterRefs,
  PARAMETERS,
  RATE_LIMIT,
  RESPONSE_HEADERS,
  type ResponseHeaderName,
} from './headers.ts';
import { operationDocs, type DocumentedId, type OperationDoc, type SuccessDoc } from './operation-docs.ts';
import { quotasOf, quotaSentence } from './quota-text.ts';
import { OPTIONAL_CREDENTIALS, securitySchemes } from './security.ts';

/** The version of the description document, not of the interface (v1): it changes whenever the text does. */
const DOCUMENT_VERSION = '1.0.0';

const TAG_DESCRIPTIONS: Record<OperationSpec['tag'], string> = {
  Projects: 'The portfolio, read-only.',
  Contact: 'Messages for the owner.',
  Batch: 'Several reads in one atomic request.',
  Jobs: 'Asynchronous tasks: create, then poll.',
  Sandbox: 'Sandbox mode: the same API without production data.',
  Keys: 'Optional self-serve test keys.',
  Search: 'Search over the developer resources.',
  OAuth: 'Access tokens for test keys (OAuth 2.0 client credentials).',
  Service: 'The state of the service itself.',
};

const infoDescription = (name: string) =>
  [
    `The public API of ${name}'s portfolio: projects, search, a contact form, batch reads, asynchronous jobs and sandbox mode.`,
    'No credentials are needed for any operation. An optional test key (POST /api/v1/keys) selects sandbox mode and a larger quota.',
    'Errors share one shape (the Error schema, which lists every code); the 404 of getProject is an RFC 9457 problem document.',
    `A request carries at most ${MAX_QUERY_PARAMETERS} query parameters (400 too_many_parameters); a parameter an operation does not take is a 400 unknown_parameter.`,
    'The interface version is v1, in the path prefix or in the X-API-Version header. Every response carries X-Request-Id.',
    "Browser pages on any origin may read (CORS, Access-Control-Allow-Origin: *). A write (POST) from a page on another origin than the site's needs a test key (X-API-Key or Authorization: Bearer): its preflight must ask for one of those headers, and without a valid key the write is a 403 cross_origin_refused.",
  ].join('\n\n');

/**
 * The OpenAPI 3.0.3 description of the API, generated from the operations table, the error
 * codes, the zod schemas the handlers validate with, and the configuration (base URL, quotas,
 * limits). Nothing in it is written twice: /openapi.json and /openapi.yaml both serialise it.
 */
export function buildOpenApiDocument(config: Config): OpenAPIObject {
  const site = loadSite();
  nameComponents();
  const registry = new OpenAPIRegistry();
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header);
  for (const [name, parameter] of Object.entries(PARAMETERS)) registry.registerComponent('parameters', name, parameter);
  for (const [name, scheme] of Object.entries(securitySchemes(config)))
    registry.registerComponent('securitySchemes', name, scheme);

  const docs = operationDocs(config);
  const operationIds = Object.keys(OPERATIONS) as OperationId[];
  // A deprecated alias takes its parameters and answers from its successor.
  const successors = new Map<OperationId, DocumentedId>(
    deprecatedAliases().map((alias) => [alias.operationId, alias.successor]),
  );
  for (const operationId of operationIds) {
    const successor = successors.get(operationId);
    registry.registerPath(
      route(operationId, docs[successor ?? (operationId as DocumentedId)], config, successor !== undefined),
    );
  }
  // The Job schema names the task results in an anyOf the generator does not follow (components.ts);
  // nameComponents has named them, so they are listed as they are.
  const taskResults = taskResultSchemas().map((schema) => ({ type: 'schema' as const, schema }));
  // Registered only when used: an unused component is a lint warning.
  if (successors.size > 0)
    for (const [name, header] of Object.entries(DEPRECATION_HEADERS))
      registry.registerComponent('headers', name, header);

  const tags = [...new Set(operationIds.map((operationId) => OPERATIONS[operationId].tag))];
  return new OpenApiGeneratorV3([...registry.definitions, ...taskResults]).generateDocument({
    openapi: '3.0.3',
    info: {
      title: `${site.name}: portfolio API`,
      version: DOCUMENT_VERSION,
      description: infoDescription(site.name),
      contact: { name: site.name, url: config.siteUrl, ...(site.email === undefined ? {} : { email: site.email }) },
    },
    // Where the operations answer: the site, or the API's own origin (API_ORIGIN).
    servers: [{ url: serviceBase(config) }],
    // A public API: no operation requires credentials; a key only selects sandbox mode and a larger quota.
    security: [],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
  });
}

function route(operationId: OperationId, doc: OperationDoc, config: Config, deprecated: boolean): RouteConfig {
  const spec: OperationSpec = OPERATIONS[operationId];
  const quotas = quotasOf(operationId);
  const charged = quotas.length > 0;
  const extraHeaders: ResponseHeaderName[] = deprecated ? ['Deprecation', 'Sunset'] : [];
  const description = [spec.description, doc.notes, ...quotas.map((quota) => quotaSentence(config, quota))];
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, success] of Object.entries(doc.success))
    responses[status] = successResponse(success, charged, extraHeaders);
  Object.assign(
    responses,
    errorResponses([...codeVariants(spec.errors), ...(doc.extraErrors ?? [])], extraHeaders, charged),
  );
  return {
    method: spec.method === 'GET' ? 'get' : 'post',
    path: spec.path,
    operationId,
    summary: spec.summary,
    description: description.filter((part) => part !== undefined).join('\n\n'),
    tags: [spec.tag],
    ...(deprecated ? { deprecated: true } : {}),
    security: doc.security ?? OPTIONAL_CREDENTIALS,
    parameters: parameterRefs([...EVERY_OPERATION, ...(doc.parameters ?? [])]),
    ...(doc.request === undefined ? {} : { request: doc.request }),
    responses,
  };
}

function successResponse(
  success: SuccessDoc,
  charged: boolean,
  extraHeaders: readonly ResponseHeaderName[],
): ResponseConfig {
  const names = [...EVERY_RESPONSE, ...(charged ? RATE_LIMIT : []), ...(success.headers ?? []), ...extraHeaders];
  const headers = headerRefs(names);
  if (success.schema === undefined) return { description: success.description, headers };
  return { description: success.description, headers, content: { 'application/json': { schema: success.schema } } };
}
