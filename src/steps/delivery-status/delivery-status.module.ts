import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../../deliveries/deliveries.module.js';
import { DeliveryStatusStep } from './delivery-status.step.js';

@Module({ imports: [DeliveriesModule], providers: [DeliveryStatusStep] })
export class DeliveryStatusModule {}
