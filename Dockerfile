# platform-medic: one image for the bot and the workers (deploy/ runs `node dist/src/cli.js bot`
# and `node dist/src/cli.js worker --cluster NAME`; test/deploy checks the commands agree).

# --- build: every dependency, compile TypeScript to dist/, then drop the dev dependencies ---
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` rejects this lock file over msgpackr-extract's optional platform packages (an npm bug);
# `npm install` still installs exactly the locked versions.
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: Node 20, production dependencies, dist/ and the bundled manifests only, never root ---
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system --gid 10001 medic \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin medic
# Files stay owned by root: the process can read its code but never change it.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The platform's manifests of each supported release, pinned by sha256 (manifests/index.json): entries
# 1 and 2 apply them without reaching the internet, which the worker's NetworkPolicy does not allow.
# dist/src/remedies/steps finds them at /app/manifests.
COPY manifests ./manifests
USER 10001:10001
# 3000: the bot's Slack endpoint, /healthz, /readyz, /metrics. 9090: the worker's (and Socket Mode
# bot's) health and metrics.
EXPOSE 3000 9090
# No HEALTHCHECK: Kubernetes ignores it and probes /healthz and /readyz itself (see deploy/).
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["bot"]
