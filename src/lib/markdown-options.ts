import { unified, type AstroMarkdownOptions, type RehypePlugin } from '@astrojs/markdown-remark';

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

const REHYPE_PLUGINS = [rehypeFocusableCode as RehypePlugin];

/**
 * Markdown settings shared by the content collections (astro.config.mjs) and the documentation
 * pages (src/lib/docs.ts), both on the remark/rehype pipeline (`unified()`), which the docs
 * pages call directly through createMarkdownProcessor. Prism marks tokens with classes (styled in
 * site.css); Shiki would write inline style attributes, which the Content-Security-Policy blocks.
 */
export const MARKDOWN_OPTIONS = {
  syntaxHighlight: 'prism',
  rehypePlugins: REHYPE_PLUGINS,
} as const satisfies AstroMarkdownOptions;

/** astro.config.mjs's `markdown`: the same settings, with the plugins given to the processor. */
export const ASTRO_MARKDOWN_CONFIG = {
  syntaxHighlight: MARKDOWN_OPTIONS.syntaxHighlight,
  processor: unified({ rehypePlugins: REHYPE_PLUGINS }),
};
