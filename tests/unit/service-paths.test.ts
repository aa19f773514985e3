import { describe, expect, it } from 'vitest';
import { ENDPOINT_PATHS } from '../../functions/app/endpoints.ts';
import { isServicePath, serviceUrl } from '../../functions/config/public-urls.ts';

describe('the dynamic paths, defined once', () => {
  it('holds every endpoint the service answers outside the router', () => {
    for (const path of ENDPOINT_PATHS) expect(isServicePath(path), path).toBe(true);
  });

  it('holds the router prefixes and no built document', () => {
    for (const path of ['/api', '/api/v1/contact', '/oauth/token']) expect(isServicePath(path), path).toBe(true);
    for (const path of ['/', '/openapi.json', '/llms.txt', '/mcp/server-card', '/contact/thanks', '/apis'])
      expect(isServicePath(path), path).toBe(false);
  });

  it('names API_ORIGIN for a dynamic path when set, SITE_URL otherwise, and refuses a static one', () => {
    const split = { siteUrl: 'https://ada.example', apiOrigin: 'https://api.ada.example' };
    expect(serviceUrl(split, '/api/v1/search?q=x')).toBe('https://api.ada.example/api/v1/search?q=x');
    expect(serviceUrl({ ...split, apiOrigin: null }, '/mcp')).toBe('https://ada.example/mcp');
    expect(() => serviceUrl(split, '/openapi.json')).toThrow(/not answered by the service/);
  });
});
