import { serviceBase, serviceUrl } from '../config/public-urls.ts';
import { BATCH_OPS } from '../batch/schema.ts';
import { CONTACT_LIMITS } from '../contact/schema.ts';
import type { Config } from '../config/env.ts';
import { MAX_LISTED_ERRORS } from '../http/api-error.ts';
import { ERROR_CODES } from '../http/error-codes.ts';
import { MAX_JSON_DEPTH } from '../http/json-depth.ts';
import { MAX_LISTED_NAMES, MAX_QUERY_PARAMETERS } from '../http/query.ts';
import { SANDBOX_HEADER_VALUES } from '../http/request-context.ts';
import { JOB_ERROR_CODES } from '../jobs/job-store.ts';
import { TASKS, DEFAULT_TASK } from '../jobs/tasks.ts';
import { API_BASE_PATH } from '../site/discovery-documents.ts';
import { TEST_KEY_PREFIX } from '../keys/key-format.ts';
import { OAUTH_ERRORS, OAUTH_SCOPES } from '../keys/schema.ts';
import { BODY_BYTES_PER_REQUEST } from '../config/fixed-limits.ts';
import { QUOTA_NAMES, quotaTable, TIERS } from '../limits/quotas.ts';
import { OPERATIONS, type OperationId } from '../operations/operations.ts';
import { LIST_LIMIT } from '../projects/schema.ts';
import { deprecatedAliases, DEPRECATED_AT, SUNSET_AT } from '../operations/deprecation.ts';
import { APP_VIEW_NAMES, APP_VIEWS, appViewUri } from '../mcp/app-views.ts';
import { INTEGRATION_PROMPT } from '../mcp/docs-server.ts';
import { MCP_MAX_MESSAGES } from '../mcp/mcp-admission.ts';
import { DOCS_TOOLS } from '../mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../mcp/product-tools.ts';
import { MCP_SERVERS } from '../mcp/server-identity.ts';
import { MAX_TOOL_ARGUMENTS, type ToolDefinition } from '../mcp/tool-registry.ts';

/** A quota as people read it: "120 per 60 s". */
function perWindow(quota: { count: number; seconds: number }): string {
  return `${quota.count} per ${quota.seconds} s`;
}

/** A duration as people read it, in the largest whole unit: "7 days", "24 hours", "90 seconds". */
function duration(seconds: number): string {
  const [unit, size] = (
    [
      ['day', 86400],
      ['hour', 3600],
      ['minute', 60],
    ] as const
  ).find(([, size]) => seconds % size === 0) ?? ['second', 1];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** A byte count in the largest binary unit that divides it (1048576 is "1 MiB"). */
function byteSize(bytes: number): string {
  const [unit, size] = (
    [
      ['GiB', 2 ** 30],
      ['MiB', 2 ** 20],
      ['KiB', 2 ** 10],
    ] as const
  ).find(([, size]) => bytes % size === 0) ?? ['bytes', 1];
  return `${bytes / size} ${unit}`;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** An MCP tool table; the anchor lets search results link to one tool. */
function toolTable(tools: readonly ToolDefinition<never>[]): string {
  const effect = ({ annotations }: ToolDefinition<never>) =>
    annotations.readOnlyHint ? 'reads' : annotations.idempotentHint ? 'writes, safe to retry' : 'writes';
  return table(
    ['Tool', 'Effect', 'What it does'],
    tools.map((tool) => [`<a id="tool-${tool.name}"></a>\`${tool.name}\``, effect(tool), tool.description]),
  );
}

/** The MCP Apps views of the product server, each with the tools whose results it shows. */
function appViewTable(): string {
  return table(
    ['View', 'Shows the result of', 'What it shows'],
    APP_VIEW_NAMES.map((name) => [
      `\`${appViewUri(name)}\``,
      PRODUCT_TOOLS.filter((tool) => tool.app === name)
        .map((tool) => `\`${tool.name}\``)
        .join(', '),
      APP_VIEWS[name].description,
    ]),
  );
}

const QUOTA_LABELS = {
  read: `Requests (every API request and MCP message; a batch counts one per operation; a body over ${BODY_BYTES_PER_REQUEST / 1024} KiB one per started ${BODY_BYTES_PER_REQUEST / 1024} KiB)`,
  contact: 'Contact messages',
  keys: 'Test keys created (always per IP)',
} as const;
const TIER_LABELS = { anonymous: 'Anonymous (per client IP)', test: 'Test key or token (per key)' } as const;

/**
 * The facts documentation pages may quote, each generated from the code that defines it, so a
 * page can never disagree with the service. A doc writes `{{name}}`; the build fills it in.
 */
export function docFacts(config: Config): Record<string, string> {
  const quotas = quotaTable(config);
  const operationIds = Object.keys(OPERATIONS) as OperationId[];
  const facts: Record<string, string> = {
    siteUrl: config.siteUrl,
    // Where the API, OAuth and the MCP servers answer: API_ORIGIN when set (functions/config/public-urls.ts).
    serviceUrl: serviceBase(config),
    apiBase: serviceUrl(config, API_BASE_PATH),
    'operations.table': table(
      ['Operation', 'Method and path', 'What it does'],
      // The anchor lets search results and llms.txt link to one operation.
      operationIds.map((id) => [
        `<a id="${id}"></a>\`${id}\``,
        `\`${OPERATIONS[id].method} ${OPERATIONS[id].path}\``,
        OPERATIONS[id].summary,
      ]),
    ),
    'errors.table': table(
      ['Code', 'Status', 'Meaning'],
      Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => [`\`${code}\``, String(status), meaning]),
    ),
    'quotas.table': table(
      ['Quota', ...TIERS.map((tier) => TIER_LABELS[tier])],
      QUOTA_NAMES.map((name) => [QUOTA_LABELS[name], ...TIERS.map((tier) => perWindow(quotas[tier][name]))]),
    ),
    'quota.read': perWindow(quotas.anonymous.read),
    'quota.contact': perWindow(quotas.anonymous.contact),
    'quota.test.read': perWindow(quotas.test.read),
    'env.quotas': [
      'READ_RATE_LIMIT',
      'CONTACT_RATE_LIMIT',
      'KEYS_RATE_LIMIT',
      'TEST_KEY_READ_RATE_LIMIT',
      'TEST_KEY_CONTACT_RATE_LIMIT',
    ]
      .map((name) => `\`${name}\``)
      .join(', '),
    'list.limit': `${LIST_LIMIT.min} to ${LIST_LIMIT.max} (default ${LIST_LIMIT.default})`,
    'contact.limits': `name 1 to ${CONTACT_LIMITS.nameMax} characters, email up to ${CONTACT_LIMITS.emailMax} characters, message ${CONTACT_LIMITS.messageMin} to ${CONTACT_LIMITS.messageMax} characters, body up to ${CONTACT_LIMITS.bodyMaxBytes / 1024} KiB`,
    'errors.max.listed': String(MAX_LISTED_ERRORS),
    'mcp.max.messages': String(MCP_MAX_MESSAGES),
    'mcp.max.arguments': String(MAX_TOOL_ARGUMENTS),
    'body.bytes.per.request': `${BODY_BYTES_PER_REQUEST / 1024} KiB`,
    'query.max.parameters': String(MAX_QUERY_PARAMETERS),
    'names.max.listed': String(MAX_LISTED_NAMES),
    'json.max.depth': String(MAX_JSON_DEPTH),
    'batch.ops': BATCH_OPS.map((op) => `\`${op}\``).join(', '),
    'batch.max': String(config.batchMaxOperations),
    'jobs.tasks': table(
      ['Task', 'What it returns'],
      Object.entries(TASKS).map(([name, task]) => [
        `\`${name}\`${name === DEFAULT_TASK ? ' (default)' : ''}`,
        task.description,
      ]),
    ),
    'jobs.errors': Object.keys(JOB_ERROR_CODES)
      .map((code) => `\`${code}\``)
      .join(', '),
    'jobs.limits': `${config.jobs.concurrency} at a time, with up to ${config.jobs.queueLimit} live and ${config.jobs.queueLimit} sandbox jobs waiting, and results are kept ${duration(config.jobs.retentionSeconds)}`,
    'jobs.shares': `may have ${config.jobs.queuePerClient} jobs waiting and ${config.jobs.runningPerClient} running at a time, and keeps its ${config.jobs.resultsPerClient} most recently finished jobs (older ones are deleted before their time is up)`,
    'sandbox.retention': duration(config.sandboxRetentionSeconds),
    'sandbox.storage': byteSize(config.sandboxStorageBytes),
    'sandbox.header': SANDBOX_HEADER_VALUES.map((value) => `\`${value}\``).join(', '),
    'key.prefix': `\`${TEST_KEY_PREFIX}\``,
    'key.ttl': `${config.testKeyTtlSeconds / 86400} days`,
    'token.ttl': `${config.tokenTtlSeconds / 60} minutes`,
    'oauth.errors': OAUTH_ERRORS.map((code) => `\`${code}\``).join(', '),
    'oauth.scopes': OAUTH_SCOPES.map((scope) => `\`${scope}\``).join(', '),
    'idempotency.ttl': `${config.idempotencyTtlSeconds / 3600} hours`,
    'deprecation.table': table(
      ['Deprecated path', 'Successor', 'Deprecated since', 'Sunset'],
      deprecatedAliases().map((alias) => [
        `\`${alias.path}\``,
        `\`${alias.successorPath}\` (\`${alias.successor}\`)`,
        DEPRECATED_AT.toISOString().slice(0, 10),
        SUNSET_AT.toISOString().slice(0, 10),
      ]),
    ),
    'mcp.url': serviceUrl(config, MCP_SERVERS.product.path),
    'mcp.docs.url': serviceUrl(config, MCP_SERVERS.docs.path),
    'mcp.tools.table': toolTable(PRODUCT_TOOLS),
    'mcp.apps.table': appViewTable(),
    'mcp.tools.list': PRODUCT_TOOLS.map((tool) => `\`${tool.name}\``).join(', '),
    'mcp.prompt': `\`${INTEGRATION_PROMPT}\``,
    'mcp.docs.tools.list': DOCS_TOOLS.map((tool) => `\`${tool.name}\``).join(', '),
    'mcp.docs.tools.table': toolTable(DOCS_TOOLS),
    'mcp.origins':
      config.mcpAllowedOrigins === null
        ? `\`${new URL(config.siteUrl).origin}\` and loopback origins (\`http://localhost:<port>\`, \`http://127.0.0.1:<port>\`)`
        : config.mcpAllowedOrigins.map((origin) => `\`${origin}\``).join(', '),
  };
  return facts;
}

/** Fills `{{fact}}` slots; an unknown slot fails the build rather than shipping a hole. */
export function fillFacts(markdown: string, facts: Record<string, string>, source: string): string {
  return markdown.replace(/\{\{([^{}]*)\}\}/g, (_slot, name: string) => {
    const value = facts[name.trim()];
    if (value === undefined) throw new Error(`${source}: unknown fact {{${name}}}`);
    return value;
  });
}
