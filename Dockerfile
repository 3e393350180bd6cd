# The app builder as one image: the Hono API on Bun, serving the built SPA from web/dist.
# Build: docker build -t app-builder .   Run: see docker-compose.yml (PostgreSQL, MinIO, Caddy in front).
# Pinned: the Bun the project is tested with.
ARG BUN_IMAGE=oven/bun:1.4.5

# Build stage: every dependency (Vite and the web toolchain are devDependencies), then the SPA.
FROM ${BUN_IMAGE} AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# Runtime stage: production dependencies only, the API's TypeScript (Bun runs it as is) and the built SPA.
FROM ${BUN_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production && rm -rf /root/.bun/install/cache
# tsconfig.json carries the @shared/* path alias that Bun resolves at run time.
COPY tsconfig.json bunfig.toml ./
COPY shared ./shared
COPY api ./api
COPY --from=build /app/web/dist ./web/dist
# The data folder belongs to the unprivileged `bun` user (uid 1000) that the image ships; a named volume
# mounted here starts out with this ownership.
RUN mkdir -p /app/data && chown bun:bun /app/data
USER bun

EXPOSE 3000
VOLUME ["/app/data"]
# Liveness only (no database round trip): /api/ready is the one that checks dependencies.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD bun -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["bun", "run", "start"]
