import type { AstroMarkdownProcessorOptions, RehypePlugin } from '@astrojs/markdown-remark';

/** The parts of an HTML syntax tree (hast) this plugin reads. */
interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * A code block can scroll sideways, so keyboard users must be able to focus it to scroll it
 * (WCAG 2.1.1; axe's scrollable-region-focusable): every `<pre>` gets tabindex="0".
 */
function rehypeFocusableCode() {
  const visit = (node: HastNode): void => {
    if (node.type === 'element' && node.tagName === 'pre') node.properties = { ...node.properties, tabIndex: 0 };
    node.children?.forEach(visit);
  };
  return (tree: HastNode) => visit(tree);
}

/**
 * Markdown settings shared by the content collections (astro.config.mjs) and the documentation
 * pages (src/lib/docs.ts). Prism marks tokens with classes (styled in site.css); Shiki would write
 * inline style attributes, which the Content-Security-Policy blocks.
 */
export const MARKDOWN_OPTIONS: AstroMarkdownProcessorOptions = {
  syntaxHighlight: 'prism',
  rehypePlugins: [rehypeFocusableCode as RehypePlugin],
};
