// swagger-ui-dist ships no types; the dashboard uses only the bundle's constructor.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;
  export default SwaggerUIBundle;
}
declare module 'swagger-ui-dist/swagger-ui.css';
