import { ApiError, type BatchFailure } from '../http/api-error.ts';
import { ERROR_CODES } from '../http/error-codes.ts';
import { fieldProblems, PLAIN_WORDS } from '../config/field-problems.ts';
import { jsonResponse } from '../http/json.ts';
import { parseJsonBody, requireJsonContentType } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import { bodyRequests } from '../http/charge.ts';
import { OPERATIONS } from '../operations/operations.ts';
import type { Catalog } from '../projects/catalog.ts';
import { batchRequestSchema, type BatchOp } from './schema.ts';

/** One operation of a valid batch. */
type BatchOperation = { op: BatchOp; id: string };

export interface BatchDependencies {
  catalog: Catalog;
  /** Every job of the batch, read at one instant (one snapshot of the store). */
  getJobs: (jobIds: readonly string[], sandbox: boolean) => Promise<ReadonlyMap<string, unknown>>;
  maxOperations: number;
}

/** The quota each further operation counts against (the `handlerQuota` of batchOperations). */
const READS = OPERATIONS.batchOperations.handlerQuota;

type Outcome = { ok: true; data: unknown } | { ok: false; code: 'project_not_found' | 'job_not_found' };

/**
 * POST /api/v1/batch: several reads in one request, all or nothing. Every job is read at one
 * instant, so the operations see one consistent state; if any fails, no result is
 * returned and the 422 lists every failure. Each operation counts as one read against the quota:
 * the router counts the first before the body is read (so an invalid batch is not free), and
 * the handler the rest once the operations are known. A body over BODY_BYTES_PER_REQUEST counts at
 * least one read per started share of it, counted as soon as it is read.
 */
export function batchHandler(deps: BatchDependencies): RouteHandler {
  const schema = batchRequestSchema(deps.maxOperations);

  return async (request, _params, context) => {
    strictQuery(request.query, []);
    requireJsonContentType(request);
    const raw = await request.readBody(64 * 1024);
    // The router counted one read; a body over BODY_BYTES_PER_REQUEST counts more, valid or not.
    const bodyReads = bodyRequests(raw.length) - 1;
    const bodyHeaders = bodyReads > 0 ? await context.charge(READS, bodyReads, 'reads') : {};
    let operations: BatchOperation[];
    try {
      operations = validOperations(parseJsonBody(raw), schema, deps.maxOperations);
    } catch (error) {
      // The refusal shows the count after the body's reads.
      if (error instanceof ApiError) Object.assign(error.headers, bodyHeaders);
      throw error;
    }
    const operationReads = operations.length - 1 - bodyReads;
    const headers = operationReads > 0 ? await context.charge(READS, operationReads, 'reads') : bodyHeaders;
    const jobIds = operations.filter(({ op }) => op === 'getJobStatus').map(({ id }) => id);
    const jobs = jobIds.length === 0 ? new Map<string, unknown>() : await deps.getJobs(jobIds, context.sandbox);
    const outcomes = operations.map(({ op, id }) => resolve(deps.catalog, jobs, op, id));

    const failures: BatchFailure[] = [];
    outcomes.forEach((outcome, index) => {
      const { op, id } = operations[index]!;
      if (!outcome.ok)
        failures.push({
          index,
          op,
          id: id.slice(0, 200),
          code: outcome.code,
          message: ERROR_CODES[outcome.code].meaning,
        });
    });
    if (failures.length > 0) {
      throw new ApiError(
        'batch_failed',
        `${failures.length} of ${operations.length} operations failed; nothing was returned.`,
        {
          hint: 'Fix or remove the failing operations and send the batch again.',
          errors: failures,
          headers,
        },
      );
    }
    const results = outcomes.map((outcome, index) => ({
      index,
      ...operations[index]!,
      status: 200,
      data: (outcome as { data: unknown }).data,
    }));
    return jsonResponse(200, { results }, headers);
  };
}

/** The operations of a batch body, or a 400 `validation_failed` naming each offending one. */
function validOperations(
  body: unknown,
  schema: ReturnType<typeof batchRequestSchema>,
  maxOperations: number,
): BatchOperation[] {
  refuseOverlongBatch(body, maxOperations);
  const parsed = schema.safeParse(body, PLAIN_WORDS);
  if (parsed.success) return parsed.data.operations;
  const errors = fieldProblems(parsed.error, {
    unknownField: 'is not a field of a batch',
    notAnObject: 'must be a JSON object with operations',
  });
  throw new ApiError('validation_failed', 'The batch is not valid; errors name each offending operation by index.', {
    hint: `Send {"operations": [{"op": "getProject", "id": "<slug>"}]} with 1 to ${maxOperations} operations.`,
    errors,
  });
}

/**
 * Refuses a batch with too many operations before any of them is looked at: validating every
 * element of a 64 KiB array of `{}` costs half a second of CPU and a megabyte-sized answer.
 */
function refuseOverlongBatch(body: unknown, maxOperations: number): void {
  const operations = (body as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(operations) || operations.length <= maxOperations) return;
  throw new ApiError(
    'validation_failed',
    `The batch holds ${operations.length} operations; at most ${maxOperations} are allowed.`,
    {
      hint: `Split the work into batches of at most ${maxOperations} operations.`,
      errors: [{ field: 'operations', problem: `must hold at most ${maxOperations} operations` }],
    },
  );
}

function resolve(catalog: Catalog, jobs: ReadonlyMap<string, unknown>, op: BatchOp, id: string): Outcome {
  if (op === 'getProject') {
    const record = catalog.get(id);
    return record === undefined ? { ok: false, code: 'project_not_found' } : { ok: true, data: record.project };
  }
  const job = jobs.get(id);
  return job === undefined ? { ok: false, code: 'job_not_found' } : { ok: true, data: job };
}
