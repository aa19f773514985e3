import type { OperationSpec } from '../operations/operations.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import { markdownHeadings, markdownToText } from './markdown-text.ts';
import type { SearchType } from './search-types.ts';

/**
 * One thing the search can find. `url` is a path on this site: the API makes it absolute with
 * the site URL it runs under, which may differ from the one the index was built with.
 */
export interface SearchDocument {
  id: string;
  type: SearchType;
  title: string;
  url: string;
  /** Section headings, weighted between the title and the text. */
  headings: readonly string[];
  /** Short labels (stack, domain, method and path...), weighted like headings. */
  tags: readonly string[];
  /** The readable text, also the source of snippets. */
  text: string;
}

/** A documentation page as the build loads it (src/lib/docs.ts): content/docs/<slug>.md is served at /<slug>. */
interface DocSource {
  /** Such as `developers/cli`. */
  slug: string;
  title: string;
  description: string;
  markdown: string;
}

/** An MCP tool as its server registers it. */
interface McpToolSource {
  name: string;
  title?: string;
  description: string;
}

export interface SearchSources {
  projects: readonly ProjectSource[];
  docs: readonly DocSource[];
  /** The API operations by operationId (functions/operations/operations.ts). */
  operations: Readonly<Record<string, OperationSpec>>;
  tools: readonly McpToolSource[];
}

/** Every searchable document, one per project, doc page, API operation and MCP tool. */
export function searchDocuments(sources: SearchSources): SearchDocument[] {
  return [
    ...sources.projects.map(projectDocument),
    ...sources.docs.map(docDocument),
    ...Object.entries(sources.operations).map(([operationId, spec]) => operationDocument(operationId, spec)),
    ...sources.tools.map(toolDocument),
  ];
}

function projectDocument(project: ProjectSource): SearchDocument {
  return {
    id: `project:${project.slug}`,
    type: 'project',
    title: project.title,
    url: `/projects/${project.slug}`,
    headings: markdownHeadings(project.markdown),
    tags: [...project.stack, project.domain],
    text: `${project.description} ${markdownToText(project.markdown)}`.trim(),
  };
}

function docDocument(doc: DocSource): SearchDocument {
  return {
    id: `doc:${doc.slug}`,
    type: 'doc',
    title: doc.title,
    url: `/${doc.slug}`,
    headings: markdownHeadings(doc.markdown),
    tags: [],
    text: `${doc.description} ${markdownToText(doc.markdown)}`.trim(),
  };
}

/** The developer page documents each operation under an anchor named by its operationId. */
function operationDocument(operationId: string, spec: OperationSpec): SearchDocument {
  return {
    id: `operation:${operationId}`,
    type: 'operation',
    title: spec.summary,
    url: `/developers#${operationId}`,
    headings: [],
    tags: [operationId, spec.method, spec.path, spec.tag],
    text: `${spec.method} ${spec.path} (${operationId}). ${spec.description}`,
  };
}

/** Tools get their own anchor prefix so that a tool and an operation of the same name cannot collide. */
function toolDocument(tool: McpToolSource): SearchDocument {
  return {
    id: `mcp_tool:${tool.name}`,
    type: 'mcp_tool',
    title: tool.title ?? tool.name,
    url: `/developers#tool-${tool.name}`,
    headings: [],
    tags: [tool.name],
    text: `${tool.name}. ${tool.description}`,
  };
}
