import type { OpenAPIObject } from '@nestjs/swagger';
import { SOURCE_NAMES } from '../sources/source-registry.js';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['post']>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('ErrorDto') } } });

type Route = 'any' | 'source' | 'evolution-event';

// A function: the source enum is read from the registry when the document is built.
const pathParameters = () => ({
  any: [],
  source: [{ name: 'source', in: 'path' as const, required: true, schema: { type: 'string', enum: [...SOURCE_NAMES] } }],
  'evolution-event': [
    { name: 'event', in: 'path' as const, required: true, description: 'the event Evolution API appends with WEBHOOK_BY_EVENTS', schema: { type: 'string', example: 'messages-upsert' } },
  ],
});

function receiveOperation(summary: string, operationId: string, route: Route): OperationObject {
  const withSource = route !== 'any';
  const form: Record<string, { schema: object }> = route === 'source' ? { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } : {};
  const twiml: Record<string, { schema: object }> = route === 'source' ? { 'text/xml': { schema: { type: 'string', example: '<?xml version="1.0" encoding="UTF-8"?><Response/>' } } } : {};
  return {
    operationId,
    summary,
    tags: ['webhook'],
    ...(withSource ? { parameters: pathParameters()[route] } : {}),
    requestBody: {
      required: true,
      description: "the provider's body (UTF-8, uncompressed), signed as its source requires: JSON, or a form post for twilio only",
      content: { 'application/json': { schema: { type: 'object', additionalProperties: true } }, ...form },
    },
    responses: {
      200: {
        description: 'every event stored (accepted), seen before (duplicate) or too old to act on (stale); twilio gets an empty TwiML document',
        content: { 'application/json': { schema: ref('WebhookAckDto') }, ...twiml },
      },
      400: error("not JSON, not an object, not the source's shape, or no event with an idempotency key"),
      401: error("the source's signature is missing, malformed, expired or wrong (the message names the header)"),
      403: error('the source is not enabled (WEBHOOK_PROVIDERS)'),
      ...(withSource ? { 404: error('no such source (or a URL suffix on a source that takes none)') } : {}),
      413: error('body above WEBHOOK_BODY_LIMIT, or more events than WEBHOOK_MAX_EVENTS'),
      415: error('a charset other than UTF-8, or a compressed body'),
      503: error('the events could not be stored: retry (Retry-After)'),
    },
  };
}

/**
 * The webhook routes in the OpenAPI document. They are served by WebhookIngress, outside
 * Nest's router, so no controller describes them; the schemas are WebhookAckDto and ErrorDto,
 * registered as extra models. Meta retries anything but exactly 200, 201 and 204 included.
 */
export function addWebhookRoutes(document: OpenAPIObject): void {
  const paths = document.paths;
  paths['/webhook'] = {
    ...paths['/webhook'],
    post: receiveOperation('A webhook request from any enabled JSON source, detected by its shape and verified with that source’s credential', 'WebhooksIngress_receive', 'any'),
  };
  paths['/webhook/{source}'] = {
    ...paths['/webhook/{source}'],
    post: receiveOperation('A webhook request from one source: verified and parsed as that source only', 'WebhooksIngress_receiveFrom', 'source'),
  };
  paths['/webhook/evolution/{event}'] = {
    post: receiveOperation('An Evolution API webhook request with WEBHOOK_BY_EVENTS (the event in the URL)', 'WebhooksIngress_receiveEvolutionEvent', 'evolution-event'),
  };
}
