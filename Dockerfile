# syntax=docker/dockerfile:1
# fulfillment-sync: the worker (default command) or any other command, e.g.
#   docker run --rm fulfillment-sync migrate
#   docker run --rm -p 4010:4010 fulfillment-sync simulator --host 0.0.0.0

# --- build: compile TypeScript to dist/, then drop the dev dependencies ---------------------------
# Exact versions, so a rebuild months later builds the same image (pin by digest where your registry
# mirror lets you check it: `docker buildx imagetools inspect node:24.21.0-bookworm-slim`).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are skipped here: `prepare` (the build) needs the sources, copied next, and runs below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY jobs ./jobs
# valibot (under @bull-board/api) names TypeScript as an optional peer, so prune keeps the compiler
# (~30 MB) although nothing loads it at run time.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/@typescript

# --- runtime: node, tini, the build and production dependencies, as a non-root user ------------
FROM node:24.21.0-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
# HTTP_PORT_FILE: the worker writes the port it listens on there, for the health check (any HTTP_PORT, 0 too).
ENV NODE_ENV=production HTTP_PORT=9464 HTTP_PORT_FILE=/tmp/fulfillment-sync-http.port
WORKDIR /app
# Owned by root and only readable by the app user: the process cannot change its own code.
COPY package.json ./
COPY migrations ./migrations
# The event JSON Schemas and their TypeScript types: `events types` prints their paths.
COPY schemas ./schemas
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
# tini is PID 1: it passes SIGTERM to the worker (which drains its jobs and exits 0) and reaps children.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/src/cli/main.js"]
CMD ["worker"]
