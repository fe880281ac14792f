import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** JSON and text answers load nothing, and no page may frame them. */
const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

/**
 * Swagger UI at /docs: its own scripts and styles, from this origin only (the @nestjs/swagger
 * page loads swagger-ui-init.js rather than inlining it); swagger-ui sets inline styles and shows
 * data: images; it calls the API at this origin ("Try it out").
 */
const DOCS_CSP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;connect-src 'self';frame-ancestors 'none';base-uri 'self';form-action 'self'";

/**
 * The headers the webhook ingress writes on its own answers (it answers outside Express, so
 * helmet never sees them): the same as helmet gives the API (helmet writes a CSP this way).
 */
export const INGRESS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': API_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const withPolicy = (policy: string) =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: parseDirectives(policy) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // TLS ends at the proxy in front (deploy/nginx.conf), which owns HSTS: a year of includeSubDomains is the domain's decision, not this service's.
    strictTransportSecurity: false,
  });

function parseDirectives(policy: string): Record<string, string[]> {
  return Object.fromEntries(policy.split(';').map((directive) => {
    const [name, ...values] = directive.split(' ');
    return [name, values];
  }));
}

/**
 * helmet on every Express answer (the API, its errors and 404s, /health, /metrics, /docs, the
 * handshake at GET /webhook): nosniff, no framing, no referrer, and a CSP that lets nothing load
 * except on /docs. The operator console sets its own, stricter CSP on its files (serve-console.ts),
 * which replaces this one.
 */
export function securityHeaders(): RequestHandler {
  const api = withPolicy(API_CSP);
  const docs = withPolicy(DOCS_CSP);
  return (req: Request, res: Response, next: NextFunction) => (req.path === '/docs' || req.path.startsWith('/docs/') ? docs : api)(req, res, next);
}
