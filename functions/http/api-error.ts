import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorCode, type ErrorCodeSpec } from './error-codes.ts';
import { jsonResponse } from './json.ts';
import type { ApiResponse, HeaderMap } from './types.ts';
import type { FieldProblem } from '../config/field-problems.ts';

// The errors of a bad body carry this shape; its importers take it from the error it belongs to.
export type { FieldProblem };

/** One failed operation of a batch. */
export interface BatchFailure {
  index: number;
  op: string;
  id: string;
  code: string;
  message: string;
}

export type ErrorDetail = FieldProblem | BatchFailure;

/**
 * Most entries an `errors` list carries; the rest are only counted (`moreErrors`). A body at the
 * size limit can hold thousands of problems, and listing each would make the answer many
 * times larger than the request.
 */
export const MAX_LISTED_ERRORS = 20;

/** An expected failure a handler throws; the router turns it into the Error shape. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint: string | undefined;
  readonly headers: HeaderMap;
  /** Render as an RFC 9457 problem document instead of the plain Error shape (a property of the code). */
  readonly problem: boolean;
  /** The problems found in the body, at most MAX_LISTED_ERRORS of them. */
  readonly errors: readonly ErrorDetail[] | undefined;
  /** How many further problems were found but not listed. */
  readonly moreErrors: number;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; headers?: HeaderMap; errors?: readonly ErrorDetail[] } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
    this.problem = (ERROR_CODES[code] as ErrorCodeSpec).problem === true;
    this.errors = options.errors?.slice(0, MAX_LISTED_ERRORS);
    this.moreErrors = Math.max(0, (options.errors?.length ?? 0) - MAX_LISTED_ERRORS);
  }
}

/** What a caller learns of a bug: the code and the request id to report; the details go only to the log. */
export function internalError(): ApiError {
  return new ApiError('internal_error', 'Something went wrong on our side.', {
    hint: 'Retry later; if it persists, report the requestId.',
  });
}

/** A body past its limit (the body readers of node:http requests and in-process requests share it). */
export function payloadTooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', `The body is larger than ${maxBytes} bytes.`, {
    hint: `Send at most ${maxBytes} bytes.`,
  });
}

/** The Error shape every failure of the API has: `{code, message, hint?, requestId}`, plus the listed problems. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  hint?: string;
  requestId: string;
  errors?: readonly ErrorDetail[];
  moreErrors?: number;
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, requestId };
  if (error.hint !== undefined) body.hint = error.hint;
  if (error.errors !== undefined) body.errors = error.errors;
  if (error.moreErrors > 0) body.moreErrors = error.moreErrors;
  return body;
}

export function errorResponse(error: ApiError, requestId: string): ApiResponse {
  return jsonResponse(error.status, errorBody(error, requestId), error.headers);
}

/**
 * The same error as an RFC 9457 problem document (section 3.1 members), keeping the Error
 * fields so that clients reading either shape find `code` and `message`. The type is
 * `about:blank`, so the title is the status phrase (RFC 9457 section 4.2.1); `code` is the
 * precise, documented reason.
 */
export function problemResponse(error: ApiError, requestId: string, instance: string): ApiResponse {
  const problem = {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    instance,
    ...errorBody(error, requestId),
  };
  return jsonResponse(error.status, problem, {
    'content-type': 'application/problem+json; charset=utf-8',
    ...error.headers,
  });
}
