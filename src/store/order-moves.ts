import { FinalStateException, InvalidTransitionException } from '../errors/api-exception.js';
import type { OrderStatus } from './order-status.js';

/** Where an order's status moves by PATCH; delivered and cancelled are final, and cancelling is its own operation. */
const MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  placed: ['approved'],
  approved: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** The statuses an order may be cancelled from: while it holds its pet. */
const CANCELLABLE: readonly OrderStatus[] = ['placed', 'approved'];

/** Throws 409 INVALID_TRANSITION, naming the moves allowed, unless `to` is `from` or a move from it. */
export function checkOrderMove(orderId: number, from: OrderStatus, to: OrderStatus): void {
  if (to === from || MOVES[from].includes(to)) return;
  const how = to === 'cancelled' && CANCELLABLE.includes(from) ? '; cancel it with POST /store/orders/{orderId}/cancel' : '';
  throw new InvalidTransitionException(`order ${orderId}`, from, to, MOVES[from], how);
}

/** Throws 409 INVALID_TRANSITION when `field` of a delivered or cancelled order would change: a final order's record is closed. */
export function checkOrderOpen(orderId: number, status: OrderStatus, field: string): void {
  if (MOVES[status].length === 0) throw new FinalStateException(`order ${orderId}`, status, field);
}

/** Throws 409 INVALID_TRANSITION unless the order may be cancelled from where it stands. */
export function checkCancellable(orderId: number, from: OrderStatus): void {
  if (!CANCELLABLE.includes(from)) throw new InvalidTransitionException(`order ${orderId}`, from, 'cancelled', []);
}
