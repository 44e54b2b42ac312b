import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PetsModule } from '../pets/pets.module.js';
import { InventoryController } from './inventory.controller.js';
import { OrdersController } from './orders.controller.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';

@Module({
  imports: [IdempotencyModule, PetsModule],
  controllers: [OrdersController, InventoryController],
  providers: [OrdersRepository, OrdersService],
})
export class StoreModule {}
