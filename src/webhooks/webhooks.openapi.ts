import type { OpenAPIObject } from '@nestjs/swagger';
import { PROVIDER_NAMES } from '../events/normalized-event.js';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['post']>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('ErrorDto') } } });

function receiveOperation(summary: string, operationId: string, withSource: boolean): OperationObject {
  return {
    operationId,
    summary,
    tags: ['webhook'],
    ...(withSource ? { parameters: [{ name: 'source', in: 'path' as const, required: true, schema: { type: 'string', enum: [...PROVIDER_NAMES] } }] } : {}),
    requestBody: {
      required: true,
      description: "the provider's JSON body (UTF-8, uncompressed), signed as its source requires",
      content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
    },
    responses: {
      200: {
        description: 'every event stored (accepted), seen before (duplicate) or too old to act on (stale)',
        content: { 'application/json': { schema: ref('WebhookAckDto') } },
      },
      400: error("not JSON, not an object, not the source's shape, or no event with an idempotency key"),
      401: error("the source's signature is missing, malformed, expired or wrong (the message names the header)"),
      403: error('the source is not enabled (WEBHOOK_PROVIDERS)'),
      ...(withSource ? { 404: error('no such source') } : {}),
      413: error('body above WEBHOOK_BODY_LIMIT'),
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
    post: receiveOperation('A delivery of any enabled source, detected by its shape and verified with that source’s credential', 'WebhooksIngress_receive', false),
  };
  paths['/webhook/{source}'] = {
    ...paths['/webhook/{source}'],
    post: receiveOperation('A delivery of one source: verified and parsed as that source only', 'WebhooksIngress_receiveFrom', true),
  };
}
