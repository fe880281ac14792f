import { Module } from '@nestjs/common';
import { ForwardClient } from '../../outbound/forward-client.js';
import { ForwardStep } from './forward.step.js';

@Module({ providers: [ForwardClient, ForwardStep], exports: [ForwardClient] })
export class ForwardModule {}
