import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestIds } from './request-id.ts';

/**
 * The request an asynchronous piece of work belongs to, so an error logged from deep inside
 * a handler, or one that nobody caught, still names its request. Only the dynamic paths run
 * inside a scope; measured on this machine, a scope costs about a microsecond per request.
 */
export const requestScope = new AsyncLocalStorage<RequestIds>();
