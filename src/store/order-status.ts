/** An order's statuses: placed, approved and delivered in turn, or cancelled while placed or approved. */
export const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses an order may be placed with: a new order is not cancelled. */
export const NEW_ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const satisfies readonly OrderStatus[];

/** An order that holds its pet: the pet moves only with it. */
export const OPEN_ORDER_STATUSES = ['placed', 'approved'] as const satisfies readonly OrderStatus[];
