import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { EnvironmentSettings } from '../config/settings/environment.settings.js';
import { TrustSettings } from '../sources/trust.settings.js';
import { ReceiptsModule } from '../receipts/receipts.module.js';
import { DestinationsModule } from '../destinations/destinations.module.js';
import { ActivityRepository } from './activity.repository.js';
import { ActivityService } from './activity.service.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { BulkReplayRepository } from './bulk-replay.repository.js';
import { BulkReplayService } from './bulk-replay.service.js';
import { DeliveriesController } from './deliveries.controller.js';
import { DestinationsController } from './destinations.controller.js';
import { InspectionService } from './inspection.service.js';
import { MessageInspectionRepository } from './message-inspection.repository.js';
import { MessagesController } from './messages.controller.js';
import { ReplayRequestsRepository } from './replay-requests.repository.js';

/** The operator API: GET /messages…, GET /messages/activity, POST /messages/{id}/replay, POST /messages/replay, GET /deliveries/{wamid}, GET /destinations. */
@Module({
  imports: [ReceiptsModule, DestinationsModule],
  controllers: [MessagesController, DeliveriesController, DestinationsController],
  providers: [InspectionService, ActivityService, ActivityRepository, MessageInspectionRepository, BulkReplayService, BulkReplayRepository, ReplayRequestsRepository, ApiKeyGuard],
})
export class InspectionModule implements OnModuleInit {
  constructor(
    private readonly trust: TrustSettings,
    private readonly environment: EnvironmentSettings,
  ) {}

  onModuleInit(): void {
    if (this.trust.INSPECTION_API_KEY.length > 0) return;
    // The API shows message contents and phone numbers: production must not run it open.
    if (this.environment.NODE_ENV === 'production') {
      throw new Error('INSPECTION_API_KEY must be set when NODE_ENV=production: the inspection API exposes message contents');
    }
    new Logger('Inspection').warn('INSPECTION_API_KEY is not set: /messages and /deliveries are open to anyone who can reach this port');
  }
}
