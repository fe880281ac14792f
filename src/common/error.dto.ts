import { ApiProperty } from '@nestjs/swagger';

/** The JSON body of every 4xx/5xx answer, for the OpenAPI document. */
export class ErrorDto {
  @ApiProperty() statusCode!: number;
  @ApiProperty() error!: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }) message!: string | string[];
}
