import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import { OPERATIONS } from '../operations/operations.ts';
import { markdownTwinPath } from '../site/markdown-twin.ts';
import { CONTACT_PAGE } from './contact-page.ts';
import { CONTACT_LIMITS } from './schema.ts';

/**
 * The contact page as Markdown (/contact.md, and /contact with Accept: text/markdown). An agent
 * cannot fill a form, so the twin says how to send the same message: the API operation the page's
 * script posts to, with the limits the page's fields enforce, and the MCP tool.
 */
export function contactAsMarkdown(origins: PublicOrigins): string {
  const { siteUrl } = origins;
  const operation = OPERATIONS.createContact;
  const docs = `${siteUrl}${markdownTwinPath('/developers#createContact')}`;
  return [
    `# ${CONTACT_PAGE.title}`,
    '',
    CONTACT_PAGE.intro,
    '',
    '## Sending a message',
    '',
    `- HTTP: \`${operation.method} ${serviceUrl(origins, operation.path)}\` with a JSON body \`{"name", "email", "message"}\` and an \`Idempotency-Key\` header holding a fresh UUID ([details](${docs})).`,
    `- Name: 1 to ${CONTACT_LIMITS.nameMax} characters. Email: a valid address of at most ${CONTACT_LIMITS.emailMax} characters. Message: ${CONTACT_LIMITS.messageMin} to ${CONTACT_LIMITS.messageMax} characters.`,
    `- MCP: the \`submit_contact\` tool of the portfolio's MCP server ([details](${siteUrl}${markdownTwinPath('/developers#tool-submit_contact')})).`,
    `- People: the form at ${siteUrl}/contact.`,
    '',
  ].join('\n');
}
