# Build stage: full dependencies, compile TypeScript, then drop the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies and compiled code only, as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    SUMMON_DATA_DIR=/data \
    PORT=3000
# git: agents' worktrees and the git gateway use the real git binary.
# bubblewrap + socat: every agent command runs in a sandbox (X1-X4; docs/security-model.md).
# The container must allow user namespaces (e.g. docker run --security-opt seccomp=unconfined
# --security-opt apparmor=unconfined, or --cap-add SYS_ADMIN); without that, bash and CLI agents
# are refused with a sentence saying so, unless SUMMON_SANDBOX=off.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates bubblewrap socat \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY schema ./schema
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/cli/main.js", "start"]
