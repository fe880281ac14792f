# syntax=docker/dockerfile:1
# Build: compile TypeScript and generate the Prisma client (no Prisma engines are needed at run time).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json nest-cli.json ./
COPY src ./src
RUN npm run build

# Runtime: production dependencies, compiled code and the migrations it applies at start.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY prisma/migrations ./prisma/migrations
USER node
EXPOSE 3000
# Liveness (/health), not readiness (/health/ready): what acts on this status (Swarm, ECS,
# autoheal) replaces an unhealthy container, and a database outage must not get every instance
# replaced (a restart fixes nothing; they recover on their own). Give /health/ready to the load
# balancer or a Kubernetes readinessProbe instead.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
