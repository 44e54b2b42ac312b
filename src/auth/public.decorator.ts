import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'petstore:isPublic';

/** Lets a route through ApiKeyGuard without a key. Everything else needs one. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
