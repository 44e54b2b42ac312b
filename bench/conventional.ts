/**
 * The bench's operations written as the NestJS documentation and samples write a service, for issue
 * 40's side by side (`npm run bench -- --against-conventional`): helmet, a global ValidationPipe
 * (whitelist, transform) over DTOs, ClassSerializerInterceptor, a logging interceptor, a bearer
 * guard that looks each key up by its hash through a TypeORM Repository, an exception filter that
 * renders `{code, message, status}`, and the entities' repositories (`find`, `findOneBy`, a create
 * and its event saved in one `transaction`). The same tables and rows as the service's.
 *
 * CONVENTIONAL_PORT, DATABASE_URL (mysql://…, the service's database).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import {
  type ArgumentsHost,
  Body,
  type CallHandler,
  type CanActivate,
  Catch,
  ClassSerializerInterceptor,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  HttpException,
  Inject,
  Injectable,
  Logger,
  Module,
  type NestInterceptor,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { Request, Response } from 'express';
import helmet from 'helmet';
import { tap } from 'rxjs';
import { DataSource, type Repository } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key-secret.js';
import { ApiKey } from '../src/auth/api-key.entity.js';
import { EventRecord } from '../src/events/event-record.entity.js';
import { Pet } from '../src/pets/pet.entity.js';

const STATUSES = ['available', 'pending', 'sold'];

class ListPetsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit = 20;
  @IsOptional() @IsIn(STATUSES) status?: string;
}

class NewPet {
  @IsString() @Length(1, 100) name: string;
  @Type(() => Number) @IsInt() @Min(1) categoryId: number;
  @IsOptional() @IsIn(STATUSES) status?: string;
}

/** tsx emits no decorator metadata: the parameter types ValidationPipe reads, named. */
const parameterTypes = (...types: unknown[]) => Reflect.metadata('design:paramtypes', types);

@Controller('v1/pets')
class PetsController {
  constructor(
    @Inject(getRepositoryToken(Pet)) private readonly pets: Repository<Pet>,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  @Get()
  @parameterTypes(ListPetsQuery)
  list(@Query() query: ListPetsQuery) {
    return this.pets.find({
      where: query.status ? { status: query.status as Pet['status'] } : {},
      order: { id: 'ASC' },
      take: query.limit,
    });
  }

  @Post()
  @parameterTypes(NewPet)
  create(@Body() body: NewPet) {
    return this.dataSource.transaction(async (manager) => {
      const pet = await manager.save(manager.create(Pet, { ...body, status: (body.status ?? 'available') as Pet['status'] }));
      const createdAt = new Date();
      await manager.insert(EventRecord, {
        publicId: `evt_${randomBytes(15).toString('base64url')}`,
        type: 'pet.created',
        createdAt,
        payload: JSON.stringify({ type: 'pet.created', createdAt, data: { object: pet } }),
      });
      return pet;
    });
  }

  @Get(':id')
  @parameterTypes(Number)
  async get(@Param('id', ParseIntPipe) id: number) {
    const pet = await this.pets.findOneBy({ id });
    if (!pet) throw new NotFoundException(`Pet ${id} was not found.`);
    return pet;
  }
}

@Injectable()
class BearerGuard implements CanActivate {
  constructor(@Inject(getRepositoryToken(ApiKey)) private readonly keys: Repository<ApiKey>) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const token = context
      .switchToHttp()
      .getRequest<Request>()
      .headers.authorization?.replace(/^Bearer /, '');
    const key = token ? await this.keys.findOneBy({ keyHash: hashApiKey(token) }) : null;
    if (!key || key.revokedAt) throw new UnauthorizedException('A valid API key is required.');
    return true;
  }
}

@Injectable()
class LoggingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('HTTP');

  intercept(context: ExecutionContext, next: CallHandler) {
    const request = context.switchToHttp().getRequest<Request>();
    const started = Date.now();
    return next.handle().pipe(tap(() => this.logger.log(`${request.method} ${request.url} ${Date.now() - started} ms`)));
  }
}

@Catch()
class ErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    const message = exception instanceof HttpException ? exception.message : 'Internal server error.';
    host
      .switchToHttp()
      .getResponse<Response>()
      .status(status)
      .json({ code: `HTTP_${status}`, message, status });
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
      entities: [Pet, ApiKey, EventRecord],
    }),
    TypeOrmModule.forFeature([Pet, ApiKey]),
  ],
  controllers: [PetsController],
  providers: [BearerGuard],
})
class ConventionalModule {}

const app = await NestFactory.create<NestExpressApplication>(ConventionalModule, { logger: ['log', 'warn', 'error'] });
app.use(helmet());
app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
app.useGlobalGuards(app.get(BearerGuard));
app.useGlobalInterceptors(new ClassSerializerInterceptor(app.get(Reflector)), new LoggingInterceptor());
app.useGlobalFilters(new ErrorFilter());
await app.listen(Number(process.env.CONVENTIONAL_PORT), '127.0.0.1');
