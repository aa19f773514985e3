import { describe, expect, it } from 'vitest';
import { ApiError } from '../../functions/http/api-error.ts';
import { RequestContexts, type Paid, type RequestContext } from '../../functions/http/request-context.ts';
import type { ApiRequest } from '../../functions/http/types.ts';
import type { QuotaHolder, QuotaName } from '../../functions/limits/quotas.ts';
import type { QuotaLimiter } from '../../functions/limits/rate-limiter.ts';

/** Every charge and refund a context passes on to the quotas, as [quota, units, whom]. */
function recordingContexts(knownKey: string | null = null) {
  const charged: [QuotaName, number, string][] = [];
  const refunded: [QuotaName, number, string][] = [];
  /** A limiter of a quota that records what it counts and always has 7 left. */
  const recording = (quota: QuotaName): QuotaLimiter => {
    const decision = { allowed: true, limit: 10, remaining: 7, resetSeconds: 60 };
    return {
      quota: { count: 10, seconds: 60 },
      consume: (key, units = 1) => {
        charged.push([quota, units, key]);
        return decision;
      },
      peek: () => Promise.resolve(decision),
      refund: () => Promise.resolve(),
    };
  };
  const contexts = new RequestContexts((credential) => Promise.resolve(credential === knownKey ? 'k1' : null), {
    account: (holder: QuotaHolder, quota: QuotaName) => ({ limiter: recording(quota), key: holder.quotaKey }),
    refund: (holder: QuotaHolder, quota: QuotaName, units: number) => {
      refunded.push([quota, units, holder.quotaKey]);
      return Promise.resolve();
    },
  });
  return { contexts, charged, refunded };
}

function request(headers: Record<string, string> = {}, query = ''): ApiRequest {
  return {
    method: 'GET',
    path: '/api/v1/projects',
    query: new URLSearchParams(query),
    headers,
    clientIp: '192.0.2.7',
    requestId: 'context-test',
    readBody: () => Promise.resolve(Buffer.alloc(0)),
  };
}

async function contextOf(contexts: RequestContexts, from: ApiRequest, paid?: Paid): Promise<RequestContext> {
  return await contexts.of(from, paid);
}

describe('RequestContext.charge', () => {
  it('passes every charge to the quotas, one unit by default, and returns their headers', async () => {
    const { contexts, charged } = recordingContexts();
    const context = await contextOf(contexts, request());
    expect(context.charge('read')).toMatchObject({ 'ratelimit-remaining': '7' });
    await context.charge('contact', 3, 'messages');
    expect(charged).toEqual([
      ['read', 1, '192.0.2.7'],
      ['contact', 3, '192.0.2.7'],
    ]);
  });

  it('uses up what was paid beforehand once, then counts again; other quotas are not covered', async () => {
    const { contexts, charged } = recordingContexts();
    const paid: Paid = { read: 1 };
    const context = await contextOf(contexts, request(), paid);
    await context.charge('keys');
    await context.charge('read');
    await context.charge('read');
    // A second request on the same payment finds it used up.
    await (await contextOf(contexts, request(), paid)).charge('read');
    expect(charged).toEqual([
      ['keys', 1, '192.0.2.7'],
      ['read', 0, '192.0.2.7'],
      ['read', 1, '192.0.2.7'],
      ['read', 1, '192.0.2.7'],
    ]);
    expect(paid).toEqual({ read: 0 });
  });

  it('covers part of a larger charge with what was paid', async () => {
    const { contexts, charged } = recordingContexts();
    await (await contextOf(contexts, request(), { read: 1 })).charge('read', 3);
    expect(charged).toEqual([['read', 2, '192.0.2.7']]);
  });

  it('refunds through the quotas, against the same caller', async () => {
    const { contexts, refunded } = recordingContexts('tk_known');
    const context = await contextOf(contexts, request({ 'x-api-key': 'tk_known' }));
    await context.refund('contact');
    expect(refunded).toEqual([['contact', 1, 'key:k1']]);
  });
});

describe('RequestContexts', () => {
  it('resolves an API caller from its key and sandbox selectors', async () => {
    const { contexts } = recordingContexts('tk_known');
    expect(await contextOf(contexts, request({ 'x-api-key': 'tk_known' }))).toMatchObject({
      tier: 'test',
      sandbox: true,
      keyId: 'k1',
      keyStatus: 'valid',
      quotaKey: 'key:k1',
      clientKey: '192.0.2.7',
    });
    expect(await contextOf(contexts, request({ 'x-sandbox': 'true' }))).toMatchObject({
      tier: 'anonymous',
      sandbox: true,
      quotaKey: '192.0.2.7',
    });
    expect(() => contexts.of(request({ 'x-sandbox': 'maybe' }))).toThrow(ApiError);
  });

  it("charges a page's visitor as anonymous, by client IP, whatever key or selector the request carries", async () => {
    const { contexts, charged } = recordingContexts('tk_known');
    const visitor = contexts.visitor(request({ 'x-api-key': 'tk_known', 'x-sandbox': 'maybe' }, 'sandbox=true'));
    expect(visitor).toMatchObject({
      tier: 'anonymous',
      sandbox: false,
      keyId: null,
      keyStatus: 'none',
      quotaKey: '192.0.2.7',
    });
    await visitor.charge('read', 1, 'searches');
    expect(charged).toEqual([['read', 1, '192.0.2.7']]);
  });
});
