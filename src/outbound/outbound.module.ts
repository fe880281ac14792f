import { Module } from '@nestjs/common';
import { ForwardClient } from './forward-client.js';

/** The one HTTP client events go out through: the forward step's and every destination's. */
@Module({ providers: [ForwardClient], exports: [ForwardClient] })
export class OutboundModule {}
