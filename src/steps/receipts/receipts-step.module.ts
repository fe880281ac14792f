import { Module } from '@nestjs/common';
import { ReceiptsModule } from '../../receipts/receipts.module.js';
import { ReceiptsStep } from './receipts.step.js';

@Module({ imports: [ReceiptsModule], providers: [ReceiptsStep] })
export class ReceiptsStepModule {}
