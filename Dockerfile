# syntax=docker/dockerfile:1
# fulfillment-sync: the worker (default command) or any other command, e.g.
#   docker run --rm fulfillment-sync migrate
#   docker run --rm -p 4010:4010 fulfillment-sync simulator --host 0.0.0.0

# --- build: compile TypeScript to dist/, then drop the dev dependencies ---------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are skipped here: `prepare` (the build) needs the sources, copied next, and runs below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
# valibot (under @bull-board/api) names TypeScript as an optional peer, so prune keeps the compiler
# (~30 MB) although nothing loads it at run time.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/@typescript

# --- runtime: node, tini, the build and production dependencies, as a non-root user ------------
FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HTTP_PORT=9464
WORKDIR /app
# Owned by root and only readable by the app user: the process cannot change its own code.
COPY package.json ./
COPY migrations ./migrations
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HTTP_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini is PID 1: it passes SIGTERM to the worker (which drains its jobs and exits 0) and reaps children.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/src/cli/main.js"]
CMD ["worker"]
