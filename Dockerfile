# wavesync image: multi-stage build on Node 20, runs the compiled dist/ as the unprivileged `node` user.
#   docker build -t wavesync .
#   docker run --env-file .env -p 3000:3000 wavesync serve      # or: bot | worker
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY sim ./sim
COPY scripts/bundle-cli.mjs scripts/bundle-client-node.mjs scripts/client-node-plugin.mjs ./scripts/
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# git: Applications whose source is a git repository; tini: signals reach node, zombies are reaped.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY examples ./examples
USER node
ENV PORT=3000
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/wavesync.js"]
CMD ["serve"]
