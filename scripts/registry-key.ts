import { generateKeyPairSync } from 'node:crypto';

/** The two halves of an Ed25519 key pair in the forms the MCP Registry's tools take them. */
export interface RegistryKeyPair {
  /** Standard base64 of the 32-byte public key: MCP_REGISTRY_PUBLIC_KEY, the `p=` of the proof record. */
  publicKey: string;
  /** Hex of the 32-byte private key (the RFC 8032 seed): `mcp-publisher login http --private-key`. */
  privateKeyHex: string;
}

/**
 * A new Ed25519 key pair (node:crypto). The raw keys are the last 32 bytes of their DER
 * encodings (SPKI and PKCS #8, RFC 8410 sections 4 and 7), which is what the registry's guide
 * takes from `openssl pkey` too (docs/modelcontextprotocol-io/authentication.mdx, "HTTP Authentication").
 */
export function newRegistryKeyPair(): RegistryKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = (der: Buffer) => der.subarray(der.length - 32);
  return {
    publicKey: raw(publicKey.export({ type: 'spki', format: 'der' })).toString('base64'),
    privateKeyHex: raw(privateKey.export({ type: 'pkcs8', format: 'der' })).toString('hex'),
  };
}
