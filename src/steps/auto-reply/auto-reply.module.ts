import { Module } from '@nestjs/common';
import { AutoReplyStep } from './auto-reply.step.js';

@Module({ providers: [AutoReplyStep] })
export class AutoReplyModule {}
