import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { Environment } from '../environments/environment.js';
import { decodeTimeCursor, encodeCursor } from '../pagination/cursor.js';
import { Page } from '../pagination/page.js';
import type { ListRequestsQuery } from './dto/list-requests.query.js';
import { RequestEntryDto } from './dto/request-entry.dto.js';
import { RequestLogDisabledException, RequestNotFoundException } from './request-log.exceptions.js';
import { type RequestFilter, RequestLogRepository } from './request-log.repository.js';

/**
 * A key's own requests in its environment, newest first (several instances' entries merged by
 * time), and one of them by its id; with REQUEST_LOG=false, an answer that says the log is off
 * rather than an empty one.
 */
@Injectable()
export class RequestLogService {
  private readonly enabled: boolean;

  constructor(
    private readonly entries: RequestLogRepository,
    config: AppConfig,
  ) {
    this.enabled = config.requestLog.enabled;
  }

  async list(
    environment: Environment,
    keyId: string,
    { limit, cursor, status, operation, idempotencyKey }: ListRequestsQuery,
  ): Promise<Page<RequestEntryDto>> {
    if (!this.enabled) throw new RequestLogDisabledException();
    const filter: RequestFilter = {
      ...(status?.endsWith('xx') ? { statusClass: Number(status[0]) } : status ? { status: Number(status) } : {}),
      ...(operation ? { operation } : {}),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    };
    // The cursor names the filter, so it cannot be carried to another listing.
    const scope = { status, operation, idempotencyKey };
    const after = cursor === undefined ? undefined : decodeTimeCursor(cursor, 'requests', scope);
    const found = await this.entries.page(environment, keyId, filter, after, limit + 1);
    if (found.length <= limit) return new Page(found.map(RequestEntryDto.from));
    found.length = limit;
    const last = found[limit - 1];
    return new Page(found.map(RequestEntryDto.from), encodeCursor([last.createdAt.getTime(), last.rowId], 'requests', scope));
  }

  async get(environment: Environment, keyId: string, requestId: string): Promise<RequestEntryDto> {
    if (!this.enabled) throw new RequestLogDisabledException();
    const entry = await this.entries.byRequestId(environment, keyId, requestId);
    if (!entry) throw new RequestNotFoundException(requestId);
    return RequestEntryDto.from(entry);
  }
}
