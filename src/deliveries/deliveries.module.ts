import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository.js';

@Module({ providers: [DeliveriesRepository], exports: [DeliveriesRepository] })
export class DeliveriesModule {}
