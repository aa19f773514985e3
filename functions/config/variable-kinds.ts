import path from 'node:path';
import { parseRateQuota, type RateQuota } from './rate-quota.ts';

/**
 * What a variable's text may be, and the value it stands for. `accepts` words the rule once:
 * the configuration reference shows it as Markdown (code in backticks), and the error about a
 * bad value expects the same words without the backticks (`expected`).
 */
export interface VariableKind<T> {
  readonly accepts: string;
  /** The value `text` stands for, or the text to quote as refused. */
  read(text: string): Reading<T>;
}

/**
 * A kind's verdict on a text: its value, or what to quote as refused. That is the text itself,
 * or a part of it (the bad item of a list), or the text with its secrets left out (a URL).
 */
export type Reading<T> = { value: T } | { refused: string };

/** What `kind` accepts, as a one-line error message quotes it: plain text, without Markdown. */
export function expected(kind: VariableKind<unknown>): string {
  return kind.accepts.replaceAll('`', '');
}

/** Whole decimal numbers from `min` to `max`; no sign, no fraction, no exponent. */
export function integer(min: number, max: number): VariableKind<number> {
  return {
    accepts: `an integer from ${min} to ${max}`,
    read: (text) => {
      const value = Number(text);
      return /^\d+$/.test(text) && value >= min && value <= max ? { value } : { refused: text };
    },
  };
}

/** A quota written `<count>/<seconds>` (rate-quota.ts). */
export const quota: VariableKind<RateQuota> = {
  accepts: '`<count>/<seconds>` with both at least 1, e.g. `120/60`',
  read: (text) => {
    const value = parseRateQuota(text);
    return value === null ? { refused: text } : { value };
  },
};

/** A switch; `1` and `0` are read as `true` and `false` too, in any case, as shells often write them. */
export const boolean: VariableKind<boolean> = {
  accepts: '`true` or `false`',
  read: (text) => {
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return { value: true };
    if (lower === 'false' || lower === '0') return { value: false };
    return { refused: lower };
  },
};

/** A folder, given as an absolute path or relative to the working directory; the value is absolute. */
export const folder: VariableKind<string> = {
  accepts: 'a folder path, absolute or relative to the working directory',
  read: (text) => ({ value: path.resolve(text) }),
};

/** Any text, as it is (`accepts` says what it is for); null when empty. */
export function optionalText(accepts: string): VariableKind<string | null> {
  return { accepts: `${accepts}, or empty`, read: (text) => ({ value: text === '' ? null : text }) };
}

/**
 * An Ed25519 public key (32 bytes, RFC 8032 section 5.1.5) in standard base64 (RFC 4648 section 4:
 * 43 characters and one `=`), as the MCP Registry decodes the `p=` of its proof record; null when
 * empty.
 */
export const optionalEd25519PublicKey: VariableKind<string | null> = {
  accepts: 'the base64 of a 32-byte Ed25519 public key (44 characters ending in `=`), or empty',
  read: (text) => {
    if (text === '') return { value: null };
    const key = text.trim();
    return /^[A-Za-z0-9+/]{43}=$/.test(key) && atob(key).length === 32 ? { value: key } : { refused: key };
  },
};

/** One address: no spaces, angle brackets, commas or quotes (so never a list, never a header of its own). */
const ADDRESS = /^[^\s<>,;"@]+@[^\s<>,;"@]+\.[^\s<>,;"@]+$/;
/** An address with an optional display name: `site@example.com` or `Portfolio <site@example.com>`. */
const NAMED_ADDRESS = /^(?:[^<>\r\n",;]+ )?<([^<>]+)>$/;

/** One email address, trimmed; null when empty. */
export const optionalAddress: VariableKind<string | null> = {
  accepts: 'one email address, such as `you@example.com`, or empty',
  read: (text) => {
    if (text === '') return { value: null };
    const address = text.trim();
    return ADDRESS.test(address) ? { value: address } : { refused: address };
  },
};

/** An email address, optionally after a display name, trimmed; null when empty. */
export const optionalNamedAddress: VariableKind<string | null> = {
  accepts: 'an email address, optionally with a name: `site@example.com` or `Portfolio <site@example.com>`, or empty',
  read: (text) => {
    if (text === '') return { value: null };
    const address = text.trim();
    const named = NAMED_ADDRESS.exec(address);
    return ADDRESS.test(address) || (named !== null && ADDRESS.test(named[1]!))
      ? { value: address }
      : { refused: address };
  },
};
