# wakit in a container: Debian slim, Node LTS, Debian's Chromium, a non-root user, sessions in a
# volume. Build:  docker build -t wakit .        Run:  docker compose up   (see compose.yaml)
# The bot's config and plugins are mounted at /app/bot (bot.config.json, plugins/, .env is not
# needed: pass WAKIT_REST_TOKEN in the environment).

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    PUPPETEER_SKIP_DOWNLOAD=true \
    PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium \
    WAKIT_DATA=/data
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system wakit && useradd --system --gid wakit --create-home wakit \
 && mkdir -p /data /app/bot && chown wakit:wakit /data /app/bot && chmod 0700 /data
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY plugins ./plugins
COPY templates ./templates
COPY docs ./docs
COPY config.schema.json ./
USER wakit
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/wakit.js"]
CMD ["start", "-c", "/app/bot/bot.config.json"]
