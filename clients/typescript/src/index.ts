// The package's one entry point: what an integrator imports from '@petstore/client'.
export { ApiPromise, type AnswerHeaders, type RawResponse, type WithRequestId } from './api-promise.js';
export { type ClientOptions, DEFAULT_BASE_URL, PetStore, type PetStoreOptions } from './client.js';
export {
  AbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  type ErrorCode,
  type ErrorCodeOf,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PetStoreError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
} from './errors.js';
export type { Logger, LogLevel } from './logging.js';
export { Page, PagePromise } from './pagination.js';
export type {
  CreatedWebhookEndpoint,
  CreateOptions,
  Event,
  EventWithDeliveries,
  ListEventsQuery,
  ListWebhookEndpointsQuery,
  NewWebhookEndpoint,
  WebhookEndpoint,
  WebhookSecret,
  Inventory,
  ListOrdersQuery,
  ListPetsQuery,
  NewOrder,
  NewPet,
  Order,
  OrderStatus,
  Pet,
  PetStatus,
  RedeliverOptions,
} from './resources.js';
export type { AbortSignalLike, Fetch, FetchInit, FetchResponse, RequestOptions } from './transport.js';
export {
  type OrderPlacedEvent,
  type PetCreatedEvent,
  type SignOptions,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookTestEvent,
  webhooks,
} from './webhooks.js';
export type { components, operations, paths } from './openapi.js';
