import { loadConfig } from '../../functions/config/env.ts';
import { serviceHref } from '../../functions/config/public-urls.ts';
import { contactMessageSchema } from '../../functions/contact/schema.ts';
import { inputJsonSchema } from '../../functions/mcp/tool-registry.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { searchQuery } from '../../functions/search/schema.ts';

/**
 * A WebMCP tool of a page as the build describes it: what the page registers with the browser
 * (name, title, description, input schema, annotations: the members of the WebMCP draft's
 * ModelContextTool and ToolAnnotations) and the API path its script calls. The input
 * schema is made here, at build, from the zod schema the API validates with, by the converter the
 * MCP servers use; the page ships it as JSON, so the browser gets the schema without zod.
 */
export interface PageTool {
  name: string;
  /** What the browser shows a person, e.g. when it asks before the agent calls the tool. */
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /**
   * readOnlyHint: the tool changes nothing, so an agent may call it without asking. The draft
   * defaults it to false; it is spelled out on every tool so that no tool is read-only by omission.
   */
  annotations: { readOnlyHint: boolean };
  api: string;
}

/**
 * The search tool of the home page and /search: GET searchQuery, the operation the page's own
 * search calls. The home page offers it too because an agent (or a scanner) that loads only the
 * home page should find a tool there.
 */
export const SEARCH_PORTFOLIO: PageTool = {
  name: 'search_portfolio',
  title: 'Search the portfolio',
  description:
    "Search this portfolio's projects, documentation pages, API operations and MCP tools; prefixes and small typos match. Returns {query, total, results} with each result's type, title, url and snippet. Narrow with type (e.g. project), cap with limit.",
  inputSchema: inputJsonSchema(searchQuery),
  annotations: { readOnlyHint: true },
  // Read when the page is built: the API's origin (API_ORIGIN) or the site's.
  get api() {
    return serviceHref(loadConfig(), OPERATIONS.search.path);
  },
};

/**
 * The message tool of /contact: POST createContact, as the page's form does. The form declares
 * the same tool (toolname, tooldescription: the draft's declarative WebMCP); a browser that runs
 * declared forms offers the form, and the script registers this one only elsewhere.
 */
export const SEND_MESSAGE: PageTool = {
  name: 'send_message',
  title: 'Send the owner a message',
  description:
    "Send the portfolio's owner a message (name, email, message), as the form on this page does; the owner replies by email. Retrying the same call is safe: the message is stored once. An invalid field comes back as validation_failed with errors naming each field; rate_limited says when to try again.",
  inputSchema: inputJsonSchema(contactMessageSchema),
  annotations: { readOnlyHint: false },
  get api() {
    return serviceHref(loadConfig(), OPERATIONS.createContact.path);
  },
};
