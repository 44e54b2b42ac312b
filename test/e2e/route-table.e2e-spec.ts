import { describe, expect, it } from '@jest/globals';
import { ApiExpressAdapter } from '../../src/http/api-express-adapter.js';
import { useApp } from './support/test-app.js';

/**
 * The route table answers 404, 405 and `OPTIONS *` from the routes registered through the adapter:
 * they must be every route Express itself tries, in its order, or a route added straight to Express
 * would answer 404 to the methods it does not take. Express's router is read here, in a test only.
 */
describe('the routes the adapter registered', () => {
  const ctx = useApp('sqlite');

  it('are every route of Express, in its order, with the same methods', () => {
    const adapter = ctx.app.getHttpAdapter() as ApiExpressAdapter;
    const stack = (adapter.getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router
      .stack;
    const expressRoutes = stack.flatMap(({ route }) =>
      route
        ? Object.keys(route.methods).map((method) => ({ method: method === '_all' ? '*' : method.toUpperCase(), path: route.path }))
        : [],
    );
    expect(expressRoutes.length).toBeGreaterThan(20);
    expect(adapter.routes).toEqual(expressRoutes);
  });
});
