import { Module } from '@nestjs/common';
import { MigrationsService } from './migrations.service.js';

@Module({ providers: [MigrationsService] })
export class MigrationsModule {}
