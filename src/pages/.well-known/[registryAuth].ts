import type { APIRoute, GetStaticPaths } from 'astro';
import { readVariable } from '../../../functions/config/read-variable.ts';
import {
  REGISTRY_AUTH_MEDIA_TYPE,
  REGISTRY_AUTH_PATH,
  registryAuthDocument,
} from '../../../functions/mcp/registry-auth.ts';
import { textResponse } from '../../lib/site-documents.ts';

/**
 * /.well-known/mcp-registry-auth, the MCP Registry's proof record (functions/mcp/registry-auth.ts),
 * written only when MCP_REGISTRY_PUBLIC_KEY is set: without a key there is nothing to prove, and
 * the path stays a 404.
 */
export const getStaticPaths = (() => {
  const publicKey = readVariable(process.env, 'MCP_REGISTRY_PUBLIC_KEY');
  return publicKey === null
    ? []
    : [{ params: { registryAuth: REGISTRY_AUTH_PATH.split('/').pop()! }, props: { publicKey } }];
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ publicKey: string }> = ({ props }) =>
  textResponse(registryAuthDocument(props.publicKey), REGISTRY_AUTH_MEDIA_TYPE);
