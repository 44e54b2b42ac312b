# The service's image. NODE_IMAGE is the Node 24 base: the official image by default; on a machine
# that reaches no registry, the stand-in of scripts/local-images.sh
# (`--build-arg NODE_IMAGE=petstore-local/node:24`).
ARG NODE_IMAGE=node:24-bookworm-slim

# Build: compile TypeScript, then keep only the production dependencies. better-sqlite3 ships
# prebuilt Node-API binaries; the toolchain is there for when none fits or none can be fetched.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# jemalloc, with a background thread that hands freed pages back to the system after a few seconds:
# glibc's malloc keeps what thousands of connections used (64 MB after a 10,000-connection attack,
# released only by malloc_trim), so resident memory would stay at its peak.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && ln -s "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /usr/local/lib/libjemalloc.so.2
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,dirty_decay_ms:5000,muzzy_decay_ms:0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The embedded SQLite default writes to data/; with DATABASE_URL=mysql://… it stays empty.
RUN mkdir -p data && chown node:node data
USER node
EXPOSE 3000
# Node is PID 1 (exec form), so SIGTERM from `docker stop` reaches the service's own drain.
# Memory bounds (the same as npm start's, chosen by measurement: docs/PERFORMANCE.md): the old
# generation capped at 128 MB, the young one at 16 MB a semi-space (on Node 24 it would otherwise grow
# to about 100 MB), and no Maglev, V8's middle compiler, whose code and compile-time memory cost
# 20-30 MB and 5 KB of garbage a request for no steady-state throughput here.
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=16", "--no-maglev", "dist/src/main.js"]
