import { Body, Query } from '@nestjs/common';
import { ApiValidationPipe } from './validation.pipe.js';

/*
 * The pipe is bound to the parameters it validates rather than as a global pipe (APP_PIPE): Nest runs
 * a global pipe on every pipeable parameter, custom ones included (@InEnvironment(), @Write()), which
 * cost every request a promise and 2.7 KB for nothing. eslint.config.js refuses Nest's bare @Body()
 * and @Query() in src/, so no route can take a body or a query string unvalidated.
 */
const VALIDATION = new ApiValidationPipe();

/** The request body, validated against the parameter's DTO class (ApiValidationPipe: 400 VALIDATION_FAILED). */
export const ValidBody = (): ParameterDecorator => Body(VALIDATION);

/** The query string, validated against the parameter's DTO class (ApiValidationPipe: 400 VALIDATION_FAILED). */
export const ValidQuery = (): ParameterDecorator => Query(VALIDATION);
