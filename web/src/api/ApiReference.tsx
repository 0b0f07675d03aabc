import { useEffect, useRef, useState } from 'react';

// ApiReference shows the /api/v1 OpenAPI document (served by complyd at /api/v1/openapi.json)
// in Swagger UI, loaded on first visit only: it is large, and officers rarely need it. "Try it
// out" calls run as the signed-in user (same-origin session cookies).
export function ApiReference() {
  const node = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let cancelled = false;
    Promise.all([import('swagger-ui-dist/swagger-ui-bundle.js'), import('swagger-ui-dist/swagger-ui.css')])
      .then(([mod]) => {
        if (cancelled || !node.current) return;
        const SwaggerUIBundle = mod.default;
        SwaggerUIBundle({
          url: '/api/v1/openapi.json',
          domNode: node.current,
          deepLinking: false,
          docExpansion: 'none',
          defaultModelsExpandDepth: 0,
          tryItOutEnabled: false,
          // Swagger UI's servers <select> has no name of its own (axe select-name).
          onComplete: () => node.current?.querySelector('#servers')?.setAttribute('aria-label', 'API server'),
        });
      })
      .catch((e: unknown) => setError(String(e)));
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <section aria-labelledby="api-title">
      <h1 id="api-title">API reference</h1>
      <p>
        The <code>/api/v1</code> JSON interface, from the OpenAPI 3.1 document at{' '}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Every answer is an envelope:{' '}
        <code>{'{"success": true, "data": …}'}</code> or <code>{'{"success": false, "error": {code, message, details?, data?}}'}</code>.
      </p>
      {error && <p role="alert">The reference could not be loaded: {error}</p>}
      <div ref={node} className="api-reference" />
    </section>
  );
}
