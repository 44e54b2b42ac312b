import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PetsModule } from '../pets/pets.module.js';
import { InventoryController } from './inventory.controller.js';
import { Order } from './order.entity.js';
import { OrderMetadataEntry } from './order-metadata.entity.js';
import { OrdersController } from './orders.controller.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Order, OrderMetadataEntry]), IdempotencyModule, PetsModule, EventsModule],
  controllers: [OrdersController, InventoryController],
  providers: [OrdersRepository, OrdersService],
})
export class StoreModule {}
