import type { Request as CannonRequest } from 'autocannon';

/** One benchmarked request; `requests` builds per-request bodies (distinct keys) when needed. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** The body sent once to capture the response the baseline replays. */
  sampleBody?: string;
  requests?: () => CannonRequest[];
}

export const scenarios: Scenario[] = [
  { name: 'GET /api/v1/projects', method: 'GET', path: '/api/v1/projects' },
  { name: 'GET /api/v1/projects/{slug}', method: 'GET', path: '/api/v1/projects/leakhound' },
  { name: 'GET /portfolio.json (static document)', method: 'GET', path: '/portfolio.json' },
];
