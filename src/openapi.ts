import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createRequire } from 'node:module';
import { ErrorDto } from './common/error.dto.js';
import { WebhookAckDto } from './webhooks/webhook-ack.dto.js';
import { addWebhookRoutes } from './webhooks/webhooks.openapi.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The OpenAPI document, generated from the controllers and DTOs (the webhook routes from webhooks.openapi.ts): UI at /docs, JSON at /docs-json. */
export function setUpOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('whatsapp-webhook-dedup')
    .setDescription(
      'Receives WhatsApp webhooks, makes each event take effect once, and lets operators inspect and replay them. ' +
        'The inspection routes need `Authorization: Bearer <INSPECTION_API_KEY>` when that variable is set.',
    )
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'INSPECTION_API_KEY' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [WebhookAckDto, ErrorDto] });
  addWebhookRoutes(document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
