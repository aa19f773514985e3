// An MCP POST's body once read: its text, its JSON when first asked (each tool call's arguments
// bounded), and how many JSON-RPC messages it holds, which the admission charges for.
import { MAX_TOOL_ARGUMENTS } from './tool-registry.ts';

/** A text that, if it is JSON, is an array: `[` after JSON's whitespace. */
const BATCH_TEXT = /^[ \t\n\r]*\[/;

/**
 * A POST's body, read: as text at once, as JSON when first asked, since a kept answer is found by
 * the text alone (answer-memo.ts) and a parse is a fifth of such an answer's cost.
 */
export class PostedBody {
  readonly text: string;
  private parsedYet = false;
  private json: unknown;

  constructor(readonly bytes: Buffer) {
    this.text = bytes.toString('utf8');
  }

  /**
   * The body as JSON for the transport, which then skips reading it again from a web stream (a
   * tenth of a call's time), each tool call's arguments bounded (boundToolArguments). Undefined
   * when it is not JSON: the transport reads the raw body and answers with its own parse error.
   */
  parsed(): unknown {
    if (!this.parsedYet) {
      this.parsedYet = true;
      this.json = parsedOrUndefined(this.text);
      boundToolArguments(this.json);
    }
    return this.json;
  }

  /** How many JSON-RPC messages it holds; only a batch, whose text opens with `[`, is parsed to count them. */
  messageCount(): number {
    return BATCH_TEXT.test(this.text) ? messageCount(this.parsed()) : 1;
  }
}

/**
 * What an MCP POST costs, charged before any work: one request per JSON-RPC message (a batch of
 * n costs n), whatever it is: a tool call, a notification, a call to an unknown tool. A tool
 * call's first API operation is that request (see tool-registry.ts), so the tool costs what
 * the operation costs over HTTP. A body that is not JSON, or an empty batch, costs one. A body
 * over BODY_BYTES_PER_REQUEST costs at least one per started share of it (its declared share
 * charged before it is read, the rest after).
 */
function messageCount(parsed: unknown): number {
  return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
}

/**
 * Cuts the arguments of each tools/call message to MAX_TOOL_ARGUMENTS + 1 names before the SDK
 * validates the message: one more than the bound is enough for the tool registry to refuse the
 * call (too_many_parameters), and the SDK's schema then never walks thousands of names.
 */
function boundToolArguments(parsed: unknown): void {
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) continue;
    const args = (params as { arguments?: unknown }).arguments;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) continue;
    const kept: [string, unknown][] = [];
    for (const name in args) {
      if (!Object.hasOwn(args, name)) continue;
      if (kept.length > MAX_TOOL_ARGUMENTS) {
        // fromEntries defines each name as its own property, `__proto__` too.
        (params as { arguments: unknown }).arguments = Object.fromEntries(kept);
        break;
      }
      kept.push([name, (args as Record<string, unknown>)[name]]);
    }
  }
}

/** The text as JSON; undefined when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
