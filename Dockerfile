# syntax=docker/dockerfile:1
#
# Charla's container image (issue 26 §4; docs/deploy.md). Two stages:
#  - build: every dependency, then `npm run build` — the dashboard (dist/dashboard), the web widget
#    (dist/widget), the public site's script (dist/site) and the server bundle (dist/charla.mjs and
#    its chunks, scripts/bundle.mjs);
#  - runtime: Node 20 on Debian slim with Debian's ffmpeg, the production dependencies only, the
#    build output and the files the server reads at run time, as the unprivileged `node` user.
#
#   docker build -t charla .
#   docker run -p 8787:8787 -v charla-data:/data charla      # one node, embedded PGlite in /data
#
# compose.yaml runs two of these behind Caddy, on PostgreSQL and MinIO.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so a source change does not reinstall them. --ignore-scripts: `prepare` (the
# dashboard build) needs the sources, which are not there yet, and the three packages with install
# scripts (esbuild, protobufjs, Baileys) work without them (package.json "allowScripts").
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The bundle must come out newer than every source: bin/charla.js rebuilds it at start otherwise
# (scripts/bundle.mjs bundleIsStale), which the read-only runtime image cannot do.
RUN npm run build \
  && node --input-type=module -e "const { bundleIsStale } = await import('./scripts/bundle.mjs'); if (bundleIsStale()) throw new Error('dist/charla.mjs is older than its sources');"

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Debian's ffmpeg converts uploads (engine/media.ts tries FFMPEG_PATH, then `ffmpeg` on the PATH,
# before the @ffmpeg-installer binary).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    CHARLA_DATA_DIR=/data \
    FFMPEG_PATH=/usr/bin/ffmpeg
WORKDIR /app

# Production dependencies only. The bundle keeps some of them external (PGlite's WebAssembly, pg,
# pino and its transports, swagger-ui's assets, fluent-ffmpeg, @ffmpeg-installer, Baileys, esbuild);
# no runtime import is a devDependency (test/deploy-files.test.ts checks it).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# What the server reads at run time:
#  - dist/: the bundle and its chunks, dist/dashboard (the SPA and routes.json), dist/widget, dist/site;
#  - bin/charla.js and scripts/bundle.mjs: the command, which checks the bundle against the sources;
#  - cli/ engine/ adapters/ plugins/ migrations/: those sources (stat'ed for that check, and run
#    through tsx should the bundle ever fail to load); migrations are inside the bundle;
#  - assets/: the demo bot's files (charla seed --demo) and the public site's media;
#  - package.json: the version the API reports.
# The bundle must stay newer than the sources and package.json. dist/ is copied last so that it is,
# whether COPY keeps the files' times or sets them to the copy's; the check below fails the build
# otherwise.
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts/bundle.mjs ./scripts/bundle.mjs
COPY --from=build /app/cli ./cli
COPY --from=build /app/engine ./engine
COPY --from=build /app/adapters ./adapters
COPY --from=build /app/plugins ./plugins
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/assets ./assets
COPY --from=build /app/tsconfig.json ./tsconfig.json
COPY --from=build /app/dist ./dist
RUN node --input-type=module -e "const { bundleIsStale } = await import('./scripts/bundle.mjs'); if (bundleIsStale()) throw new Error('dist/charla.mjs is older than its sources');" \
  && mkdir -p /data \
  && chown node:node /data

# The app's files stay root's (read-only to the server); only the data dir is the server's.
USER node
VOLUME ["/data"]
EXPOSE 8787

# Liveness: /healthz answers while the process is up (docs/deploy.md: probes). Node's own fetch, no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# SIGTERM (docker stop) drains the node and exits 0; give it longer than CHARLA_SHUTDOWN_GRACE_MS.
STOPSIGNAL SIGTERM
CMD ["node", "bin/charla.js", "serve", "--host", "0.0.0.0", "--port", "8787"]
