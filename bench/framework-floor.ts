/**
 * The framework's floor: NestJS on Express, as the service uses them, with one controller that
 * answers GET /v1/pets with a constant page of 20 pets. No database, no middleware, no guard, pipe,
 * interceptor or logging. Whatever the service does on top of this costs at least this much, so
 * its throughput here bounds what any service on this stack can reach on the machine.
 *
 * FLOOR_PORT.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

const PAGE = Array.from({ length: 20 }, (_, index) => ({ id: index + 1, name: `Seeded ${index}`, categoryId: 7, status: 'available' }));

@Controller('v1/pets')
class ConstantController {
  @Get()
  list() {
    return PAGE;
  }
}

@Module({ controllers: [ConstantController] })
class FloorModule {}

const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false, bodyParser: false });
app.disable('x-powered-by');
app.set('etag', false);
await app.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
