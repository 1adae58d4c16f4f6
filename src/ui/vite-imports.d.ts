// Vite's `?inline` import: a stylesheet's text (for shadow roots).
declare module '*.css?inline' {
  const css: string;
  export default css;
}
