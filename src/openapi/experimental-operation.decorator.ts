import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';

/** An operation whose shape may still change: `x-stability: experimental`, said in its description too. */
export function ExperimentalOperation(options: ApiOperationOptions): MethodDecorator {
  const note = 'Experimental: the shape of this operation may change without a new API version.';
  return applyDecorators(
    ApiOperation({ ...options, description: options.description ? `${note} ${options.description}` : note }),
    ApiExtension('x-stability', 'experimental'),
  );
}
