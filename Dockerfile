# One image for every transfergate process; the command picks the service:
#   node services/<name>/dist/main.js    (gateway-api, ledger, panel-api, callback-dispatcher, webhook-ingest)
#   node apps/all-in-one/dist/main.js    (everything in one process, the default)
#   node apps/all-in-one/dist/provision-main.js --bootstrap file.json   (distributed provisioning)

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs libs
COPY services services
COPY apps apps
COPY nx.json tsconfig.json .swcrc ./
# After the build: no dev dependencies (the panel's React/MUI/recharts, the tools) and no optional ones
# (the KurrentDB and MongoDB clients with their gRPC stack). ENGINE_CLIENTS=true (compose's `card`
# profile) keeps them for a ledger with KURRENTDB_URL / MONGODB_URL: they are root dev dependencies,
# so that image skips the prune and carries the whole install.
ARG ENGINE_CLIENTS=false
RUN npm ci --no-audit --no-fund && npm run build && \
  if [ "$ENGINE_CLIENTS" != "true" ]; then npm prune --omit=dev --omit=optional --no-audit --no-fund; fi

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# The image's non-root user (uid 1000); Kubernetes enforces it with runAsNonRoot.
USER 1000:1000
EXPOSE 3000 8080 8081 8082 8083 8084
CMD ["node", "apps/all-in-one/dist/main.js"]
