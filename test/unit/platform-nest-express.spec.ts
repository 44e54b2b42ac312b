import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, HttpCode, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import request from 'supertest';
import { AnsweringExpressAdapter } from '../../src/platform/nest-express-reply.js';
import { installedVersion } from './support/installed-version.js';

@Controller('things')
class ThingsController {
  @Get()
  list(): object[] {
    return [{ id: 1 }];
  }

  @Get('later')
  async later(): Promise<object> {
    return { id: 2 };
  }

  @Get('nothing')
  nothing(): void {}

  @Post()
  create(@Body() body: unknown): object {
    return { created: body ?? null };
  }

  @Post('accepted')
  @HttpCode(202)
  accept(): object {
    return { accepted: true };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** Every answer, as the adapter was handed it; each sent by Nest's own reply, with a header of its own. */
class RecordingAdapter extends AnsweringExpressAdapter {
  readonly answers: { body: unknown; statusCode: number | undefined; status: number }[] = [];

  protected answer(response: Response, body: unknown, statusCode: number | undefined): unknown {
    this.answers.push({ body, statusCode, status: response.statusCode });
    response.setHeader('X-Answered', 'yes');
    return this.nestReply(response, body, statusCode);
  }
}

/**
 * What src/platform/nest-express-reply.ts assumes of Nest: a handler's result, awaited, goes to the
 * adapter's reply, once, the route's status set on the response already, and what reply sends is
 * the answer. A new version
 * may answer otherwise: check, then move the pin.
 */
describe('Nest, as src/platform/nest-express-reply.ts uses it', () => {
  const adapter = new RecordingAdapter();
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(ThingsModule, adapter, { logger: false });
    await app.init();
  });
  afterAll(async () => app?.close());

  it('is the version the reply hook was written for', () => {
    expect(installedVersion('@nestjs/core')).toBe('12.5.1');
    expect(installedVersion('@nestjs/platform-express')).toBe('12.5.1');
  });

  it.each([
    ['GET', '/things', { body: [{ id: 1 }], statusCode: undefined, status: 200 }, 200],
    ['GET', '/things/later', { body: { id: 2 }, statusCode: undefined, status: 200 }, 200],
    ['GET', '/things/nothing', { body: undefined, statusCode: undefined, status: 200 }, 200],
    ['POST', '/things', { body: { created: { name: 'Rex' } }, statusCode: undefined, status: 201 }, 201],
    ['POST', '/things/accepted', { body: { accepted: true }, statusCode: undefined, status: 202 }, 202],
  ] as const)(
    'hands what %s %s returned to reply, once, its status set, and sends what reply sends',
    async (method, path, handed, status) => {
      adapter.answers.length = 0;
      const call = request(app.getHttpServer())[method === 'GET' ? 'get' : 'post'](path);
      const response = await (method === 'POST' ? call.send({ name: 'Rex' }) : call);
      expect(adapter.answers).toEqual([handed]);
      expect(response.status).toBe(status);
      expect(response.headers['x-answered']).toBe('yes');
    },
  );
});
