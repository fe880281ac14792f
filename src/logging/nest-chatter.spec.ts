import { jest } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { withNestChatterAtDebug } from './nest-chatter.js';

describe('withNestChatterAtDebug', () => {
  const make = () => ({ log: jest.fn(), debug: jest.fn(), warn: jest.fn(), error: jest.fn() }) satisfies LoggerService;

  it('logs Nest’s module and route lines at debug, everything else as asked', () => {
    const inner = make();
    const logger = withNestChatterAtDebug(inner);
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('listening on port 3000 on every interface', 'Bootstrap');
    logger.warn('careful', 'InstanceLoader');
    expect(inner.debug.mock.calls).toEqual([['AppModule dependencies initialized', 'InstanceLoader'], ['Mapped {/health, GET} route', 'RouterExplorer']]);
    expect(inner.log.mock.calls).toEqual([['listening on port 3000 on every interface', 'Bootstrap']]);
    expect(inner.warn).toHaveBeenCalledWith('careful', 'InstanceLoader');
  });
});
