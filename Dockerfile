# syntax=docker/dockerfile:1
# Two stages: `build` compiles the TypeScript (the generated Prisma client included, into dist/generated) and the
# operator console (into dist/console);
# `runtime` holds only production dependencies, dist/ and the migrations, and runs as the unprivileged `node` user.
#   docker build -t whatsapp-webhook-dedup .
#   docker run -e DATABASE_URL=postgresql://… -e INSPECTION_API_KEY=… -p 3000:3000 whatsapp-webhook-dedup
# The same image runs the worker alone (`node dist/worker-main.js`) and the migrations alone (`node dist/migrate.js`);
# docker-compose.yml runs all three.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
# The postinstall (scripts/prisma-generate.mjs) generates the client into src/generated/prisma; .dockerignore keeps
# any local copy out of the context so that `COPY src` cannot replace it. No database and no Prisma engine needed.
# No install-time telemetry from dependencies (@scarf/scarf).
ENV SCARF_ANALYTICS=false
RUN npm ci --no-audit --no-fund
COPY tsconfig.json nest-cli.json ./
COPY src ./src
# The operator console (Vite + Preact), built into dist/console and served by the service at /console.
COPY console ./console
RUN npm run build

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
# --omit=optional too: @prisma/client declares `prisma` and `typescript` as optional peer dependencies, so npm keeps
# them (flagged devOptional in the lockfile) under --omit=dev alone; the postinstall would then find the Prisma CLI
# and fail to generate without a schema. Without them it skips: the client is already compiled into dist/generated.
# (The only other optional package in the tree is pg-cloudflare, which Node never loads.)
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Read at start (migrations) and by /health/ready (pending migrations), from ../../prisma/migrations of dist/migrations.
COPY prisma/migrations ./prisma/migrations
# Files stay owned by root: the process can read its code but not change it, and it writes nothing to disk.
USER node
EXPOSE 3000
# Liveness (/health), not readiness (/health/ready): what acts on this status (Swarm, ECS,
# autoheal) replaces an unhealthy container, and a database outage must not get every instance
# replaced (a restart fixes nothing; they recover on their own). Give /health/ready to the load
# balancer or a Kubernetes readinessProbe instead. The standalone worker serves no /health:
# docker-compose.yml gives it a check of its own.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node is PID 1 and handles SIGTERM/SIGINT itself (src/shutdown.ts: stop leasing, drain for SHUTDOWN_TIMEOUT_MS,
# close HTTP and the pool, exit 0), so `docker stop` ends it cleanly without an init. An init (`docker run --init`,
# compose `init: true`) still helps in one case: PID 1 ignores signals it has no handler for, so a SIGTERM that
# arrives during start-up (before the handler is installed) would otherwise wait for the kill timeout.
CMD ["node", "dist/main.js"]
