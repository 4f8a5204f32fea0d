# The image `wsbench k8s` runs in each shard pod (docs/kubernetes.md): this checkout's
# wsbench, built here, with the pinned stacks and the pinned Bun and Deno packages.
#   docker build -t REGISTRY/wsbench:0.1.0 . && docker push REGISTRY/wsbench:0.1.0
# The Bun and Deno packages exist for linux/amd64 only; on other platforms those stacks
# are reported unavailable and the Node stacks still run.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own "prepare" would build before the sources are copied.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY scenarios ./scenarios
RUN npx tsc -p tsconfig.json

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only, exactly as locked. No install scripts run: the native parts
# (uWebSockets.js, resvg, bufferutil) ship prebuilt binaries, and "prepare" needs the compiler.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY bin ./bin
COPY schema ./schema
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/scenarios ./dist/scenarios
# The live dashboard's page, served as it is (--dashboard).
COPY src/browser/dashboard-page ./src/browser/dashboard-page
# Result files and charts land in the working directory, which the unprivileged user owns.
USER node
WORKDIR /home/node
ENTRYPOINT ["node", "--max-semi-space-size=1", "/app/bin/wsbench.js"]
