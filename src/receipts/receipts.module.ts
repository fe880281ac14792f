import { Module } from '@nestjs/common';
import { ReceiptsRepository } from './receipts.repository.js';

@Module({ providers: [ReceiptsRepository], exports: [ReceiptsRepository] })
export class ReceiptsModule {}
