# The service as an image: `docker build -t licensing .` (or `podman build --format docker`,
# which keeps the HEALTHCHECK), then `docker run -p 3000:3000 -v licensing:/data licensing`.
# Every stage is node:24-bookworm-slim, which has no compiler: better-sqlite3's prebuilt
# binary comes inside its npm package, and package.json's allowScripts keeps npm from
# compiling it anyway (docs/deploy.md, "Containers").

# 1. Build: every dependency, then the server (tsc) and the portal (vite).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY portal ./portal
RUN npm run build

# 2. Production dependencies only: stage 1's node_modules without the dev ones (no second
# install). better-sqlite3 carries its C sources and binaries for 8 platforms: only this
# one's stays.
FROM build AS deps
RUN npm prune --omit=dev --no-audit --no-fund \
 && cd node_modules/better-sqlite3 && rm -rf deps src binding.gyp build \
 && find prebuilds -type f ! -name "$(node -p 'process.platform + "-" + process.arch').node" -delete \
 && node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()'

# 3. The image: node_modules of stage 2, the built server and portal of stage 1.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    DATABASE_URL=sqlite:/data/licensing.db \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/portal/dist ./portal/dist
COPY package.json ./
# A new named volume starts as a copy of /data: owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers (also while it waits for its database, see /readyz).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 (no npm, no shell): SIGTERM reaches the server, which closes gracefully.
# Its flags are npm start's (package.json; docs/scale.md "Node flags" says why).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=32", "--no-concurrent-marking", "--enable-source-maps", "dist/server.js"]
