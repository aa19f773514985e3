import { describe, expect, it } from 'vitest';
import { headerRules } from '../../functions/hosts/static/header-rules.ts';
import { headersFile } from '../../functions/hosts/static/headers-file.ts';
import { cloudflareHeadersFor, parseCloudflareHeaders } from '../support/host-readers/cloudflare.ts';
import { netlifyHeadersFor, parseNetlifyHeaders } from '../../functions/hosts/netlify/netlify-rules.ts';

const JS = { 'content-type': 'text/javascript; charset=utf-8' };
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const MD = { 'content-type': 'text/markdown; charset=utf-8' };

/** Each path's headers as Netlify and Cloudflare Pages read the rules (Cloudflare's own defaults left out). */
function asRead(paths: Map<string, Record<string, string>>, elsewhere = { paths: [] as string[], headers: {} }) {
  const text = headersFile(headerRules(paths, elsewhere));
  const netlify = parseNetlifyHeaders(text);
  const cloudflare = parseCloudflareHeaders(text);
  return (urlPath: string) => {
    const fromNetlify = netlifyHeadersFor(netlify, urlPath);
    const fromCloudflare = cloudflareHeadersFor(cloudflare, urlPath);
    const {
      'access-control-allow-origin': _a,
      'referrer-policy': _r,
      'x-content-type-options': _x,
      'cache-control': _c,
      ...own
    } = fromCloudflare.headers;
    return {
      netlify: fromNetlify.headers,
      cloudflare: own,
      conflicts: [...fromNetlify.conflicts, ...fromCloudflare.conflicts],
    };
  };
}

describe('header rules from a table', () => {
  it('group paths under the widest pattern both hosts read alike', () => {
    const paths = new Map([
      ['/_astro/a.js', JS],
      ['/_astro/b.js', JS],
      ['/_astro/c.js', JS],
    ]);
    expect(headersFile(headerRules(paths))).toContain('\n/*\n  Content-Type: text/javascript; charset=utf-8');
  });

  it('never use /*.js where Netlify would also match /stack/node-js, nor /stack/* where it would match /stack.md', () => {
    const paths = new Map<string, Record<string, string>>([
      ['/a.js', JS],
      ['/b.js', JS],
      ['/stack/node-js', HTML],
      ['/stack/deno', HTML],
      ['/stack.md', MD],
      ['/other.md', MD],
    ]);
    const read = asRead(paths);
    for (const [urlPath, headers] of paths) {
      const { netlify, cloudflare, conflicts } = read(urlPath);
      expect(conflicts, urlPath).toEqual([]);
      expect(netlify, urlPath).toEqual(headers);
      expect(cloudflare, urlPath).toEqual(headers);
    }
  });

  it('let no rule but /* reach a path something else answers', () => {
    const card = { 'content-type': 'application/mcp-server-card+json', 'access-control-allow-methods': 'GET' };
    const paths = new Map<string, Record<string, string>>([
      ['/mcp/server-card', card],
      ['/mcp/other-card', card],
    ]);
    const read = asRead(paths, { paths: ['/mcp', '/mcp/docs'], headers: {} });
    expect(read('/mcp/docs').netlify).toEqual({});
    expect(read('/mcp/server-card').netlify).toEqual(card);
  });
});
