import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RedisModule } from '../redis/redis.module.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyIssuer } from './api-key-issuer.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { QuickStartKey } from './quick-start-key.js';
import { TrustedKeysRecheck } from './trusted-keys-recheck.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), RedisModule],
  providers: [ApiKeysRepository, ApiKeyIssuer, ApiKeyService, TrustedKeysRecheck, QuickStartKey, ApiKeyGuard],
  exports: [ApiKeyService, ApiKeyGuard, ApiKeyIssuer],
})
export class AuthModule {}
