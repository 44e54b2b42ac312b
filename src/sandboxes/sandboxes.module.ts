import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { SandboxRemover } from './sandbox-remover.js';
import { SandboxRowsRepository } from './sandbox-rows.repository.js';
import { Sandbox } from './sandbox.entity.js';
import { SandboxesController } from './sandboxes.controller.js';
import { SandboxesRepository } from './sandboxes.repository.js';
import { SandboxesService } from './sandboxes.service.js';

/** Sandboxes: made, listed and deleted through the API by live keys, and removed in the background when deleted or expired. */
@Module({
  imports: [TypeOrmModule.forFeature([Sandbox]), AuthModule],
  controllers: [SandboxesController],
  providers: [SandboxesRepository, SandboxRowsRepository, SandboxesService, SandboxRemover],
})
export class SandboxesModule {}
