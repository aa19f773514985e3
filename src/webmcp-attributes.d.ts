/**
 * WebMCP's declarative form attributes (webmachinelearning/webmcp, "Declarative API"), which a
 * browser with WebMCP reads to offer a form as a tool. `tooltitle` is Chrome's own, not in the
 * explainer. Astro's HTML types know none of them yet.
 */
declare namespace astroHTML.JSX {
  interface FormHTMLAttributes {
    toolname?: string | undefined | null;
    tooltitle?: string | undefined | null;
    tooldescription?: string | undefined | null;
  }
}
