import { Module } from '@nestjs/common';
import { AutoReplyModule } from './auto-reply/auto-reply.module.js';
import { ReceiptsStepModule } from './receipts/receipts-step.module.js';
import { DestinationsStepModule } from './destinations/destinations-step.module.js';
import { ForwardModule } from './forward/forward.module.js';

/**
 * The one place steps are registered. Add your own module (providers marked @WorkerStep)
 * to `imports`; the worker discovers and orders every step at boot. See docs/processing.md, "Your own steps".
 */
@Module({ imports: [ReceiptsStepModule, ForwardModule, DestinationsStepModule, AutoReplyModule] })
export class StepsModule {}
