# Business Operations API: build with the dev dependencies, run on the production ones only.
#   docker build -t bizops-api .
#   docker run --rm -p 8080:8080 -v bizops-data:/data bizops-api

# ---- build: compile TypeScript to dist/ -------------------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the build needs only tsc (prebuilt per platform); skipping them avoids
# compiling optional native test-only addons (ssh2/cpu-features) that slim images cannot build.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY domain ./domain
COPY application ./application
COPY adapters ./adapters
COPY bootstrap ./bootstrap
RUN npm run build

# ---- runtime: plain node on dist/, non-root ---------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The embedded database, the generated JWT key and the OTP secret live in DATA_DIR.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/actuator/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations first (they also run at server start), then the server as PID 1 (gets SIGTERM).
CMD ["sh", "-c", "node dist/bootstrap/cli.js migrate && exec node dist/bootstrap/main.js"]
