/**
 * The stack's floor: NestJS on Express with @nestjs/typeorm, serving the bench's operations
 * with one TypeORM statement each (`DataSource.query`) and nothing else: no middleware, guard,
 * pipe, interceptor, validation or logging. Whatever the service does on top of this is the cost
 * of its features and of how its request path is built; issue 12's target is ≥ 0.70× of this.
 *
 * FLOOR_PORT, DATABASE_URL (mysql://…, its own database with the service's data).
 */
import 'reflect-metadata';
import { Body, Controller, Get, Inject, Module, Param, Patch, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const COLUMNS = 'id, name, category_id AS categoryId, status';

@Controller('v1/pets')
class PetsController {
  // tsx emits no decorator metadata: the token is named.
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  list(@Query('limit') limit = '20', @Query('status') status?: string) {
    return status
      ? this.dataSource.query(`SELECT ${COLUMNS} FROM pets WHERE status = ? ORDER BY id LIMIT ?`, [status, Number(limit) + 1])
      : this.dataSource.query(`SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT ?`, [Number(limit) + 1]);
  }

  @Post()
  async create(@Body() pet: { name: string; categoryId: number; status?: string }) {
    const { insertId } = await this.dataSource.query('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)', [
      pet.name,
      pet.categoryId,
      pet.status ?? 'available',
    ]);
    return { id: insertId, ...pet };
  }

  @Get(':id')
  async get(@Param('id') id: string) {
    const [pet] = await this.dataSource.query(`SELECT ${COLUMNS} FROM pets WHERE id = ?`, [Number(id)]);
    return pet;
  }

  @Patch(':id')
  async update(@Param('id') id: string, @Body() patch: { name: string }) {
    await this.dataSource.query('UPDATE pets SET name = ? WHERE id = ?', [patch.name, Number(id)]);
    return { id: Number(id), ...patch };
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'mysql',
      url: process.env.DATABASE_URL,
      poolSize: 10,
      charset: 'utf8mb4_unicode_ci',
      supportBigNumbers: true,
    }),
  ],
  controllers: [PetsController],
})
class FloorModule {}

const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
app.disable('x-powered-by');
app.set('etag', false);
await app.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
