import type { APIRoute } from 'astro';
import { API_BASE_PATH } from '../../../../../functions/site/discovery-documents.ts';
import { protectedResourceMetadata } from '../../../../lib/protected-resource.ts';

/** RFC 9728 metadata of the API: the resource `<origin>/api/v1`, at the well-known prefix plus that path (section 3.1). */
export const GET: APIRoute = () => protectedResourceMetadata(API_BASE_PATH);
