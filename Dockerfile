# wakit in a container: Debian slim, Node LTS, Debian's Chromium, the non-root user wakit
# (uid/gid 10001), data in the volume /data (WAKIT_DATA). Everything about it: docs/deploy.md.
#   docker build -t wakit .          docker compose up -d   (compose.yaml)
# The bot (bot.config.json, plugins/) is mounted read-only at /app/bot; its plugins import
# `wakitjs` from this image. Secrets come from the environment (WAKIT_REST_TOKEN), never a .env.

# Build stage: compilers for better-sqlite3's native module (prebuilt binaries cannot always be
# downloaded; then node-gyp builds it against the Node headers of the base image), the dev
# dependencies for the TypeScript build. Nothing of it but dist/ and node_modules/ goes on.
FROM node:22-bookworm-slim AS build
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild better-sqlite3 \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"
COPY tsconfig.json tsconfig.build.json tsconfig.plugin-types.json tsup.config.ts ./
COPY scripts/write-plugin-types.ts ./scripts/
COPY src ./src
COPY plugins ./plugins
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    PUPPETEER_SKIP_DOWNLOAD=true \
    PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium \
    WAKIT_DATA=/data
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 wakit \
 && useradd --uid 10001 --gid wakit --create-home --shell /usr/sbin/nologin wakit \
 && mkdir -p /data /app/bot && chown wakit:wakit /data && chmod 0700 /data
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs config.schema.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY plugins ./plugins
COPY templates ./templates
COPY docs ./docs
# `import 'wakitjs'` from a bot's plugins under /app/bot resolves to this install
RUN ln -s /app /app/node_modules/wakitjs
USER wakit:wakit
VOLUME ["/data"]
EXPOSE 3000
# Liveness (docs/deploy.md): 503 once every client is FAILED past watchdog.failedGraceMs or the
# event loop is wedged; no answer within the timeout counts as a failure too.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/wakit.js"]
CMD ["start", "-c", "/app/bot/bot.config.json"]
