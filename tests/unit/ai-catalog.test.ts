import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';
import { describe, expect, it } from 'vitest';
import { aiCatalog } from '../../functions/discovery/ai-catalog.ts';
import { cardName } from '../../functions/mcp/server-identity.ts';
import { ROOT } from '../support/server.ts';

/** The ARD schema, vendored (tests/fixtures/discovery-schemas/README.md). */
const validate = new AjvJsonSchemaValidator().getValidator(
  JSON.parse(
    readFileSync(path.join(ROOT, 'tests/fixtures/discovery-schemas/ai-catalog.schema.json'), 'utf8'),
  ) as Record<string, unknown>,
);

// The built site is made for localhost (tests/system/mcp-cards-inspector.test.ts); a real domain
// and a port show where the publisher segment and the URLs come from.
const SITE = 'https://portfolio.ada.example:8443';
const catalog = aiCatalog({
  siteUrl: SITE,
  siteName: 'Ada',
  apiTitle: 'Ada: portfolio API',
  skills: [{ name: 'portfolio-api', title: 'Guide for agents', description: 'How an agent uses this portfolio.' }],
});

describe('aiCatalog', () => {
  it('names the site domain as publisher in every identifier, and the site URL in every url', () => {
    expect(catalog.host).toEqual({
      displayName: 'Ada',
      identifier: 'portfolio.ada.example',
      documentationUrl: `${SITE}/developers`,
      // "Host Info" > `logoUrl`: the site icon's largest PNG, by absolute URL (functions/site/site-icons.ts).
      logoUrl: `${SITE}/icons/icon-512.png`,
    });
    expect(catalog.entries.map((entry) => entry.identifier)).toEqual([
      'urn:air:portfolio.ada.example:mcp:portfolio',
      'urn:air:portfolio.ada.example:mcp:portfolio-docs',
      'urn:air:portfolio.ada.example:skill:portfolio-api',
      'urn:air:portfolio.ada.example:api:portfolio',
    ]);
    // An MCP entry's name is the part of its card's name after "/" (the server-card discovery document, "Server Card Entries").
    expect(catalog.entries[0]!.identifier.endsWith(`:${cardName('product', SITE).split('/')[1]}`)).toBe(true);
    const urls = catalog.entries.flatMap((entry) =>
      'url' in entry ? [entry.url] : entry.data.entries.map((nested) => nested.url),
    );
    expect(urls).toEqual([
      `${SITE}/mcp/server-card`,
      `${SITE}/mcp/docs/server-card`,
      `${SITE}/.well-known/agent-skills/portfolio-api/SKILL.md`,
      `${SITE}/openapi.json`,
      `${SITE}/openapi.yaml`,
    ]);
  });

  it("points each MCP entry at its server's part of the Connect page", () => {
    expect(catalog.entries.flatMap((entry) => ('metadata' in entry ? [entry.metadata.installPage] : []))).toEqual([
      `${SITE}/connect#portfolio`,
      `${SITE}/connect#portfolio-docs`,
    ]);
  });

  it('is valid for the ARD schema and passes its conformance check without a warning', () => {
    expect(validate(catalog).errorMessage).toBeUndefined();
    const tester = new ConformanceTester();
    expect(tester.validate_manifest(JSON.stringify(catalog), 'ai-catalog.json')).toBe(true);
    expect({ errors: tester.errors, warnings: tester.warnings }).toEqual({ errors: [], warnings: [] });
  });
});
