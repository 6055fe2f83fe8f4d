# syntax=docker/dockerfile:1
# One image, two processes:
#   docker run -e APP_SECRET=... -e DATABASE_URL=... -e REDIS_URL=... -p 3000:3000 course-platform   # the API
#   docker run -e APP_SECRET=... -e DATABASE_URL=... -e REDIS_URL=... course-platform node dist/src/worker.js   # the worker
#   docker run ... course-platform node dist/src/cli.js create-org --name "Acme"   # the admin CLI
# Both processes create the database if missing and apply pending migrations at start (under an
# advisory lock, so starting them together is safe). NODE_ENV=production requires APP_SECRET.
# DATABASE_URL is the owner's (migrations); both serve through APP_DATABASE_URL, a role that is neither
# superuser nor table owner (README "Database roles"; required here when DATABASE_URL has a password).

# ---- build: every dependency, compile TypeScript to dist/
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# ---- production dependencies only (native ones, such as argon2, use their prebuilt binaries)
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime
FROM node:20-slim
# tini as PID 1: forwards SIGTERM/SIGINT to node (whose graceful shutdown re-raises the signal,
# which PID 1 itself would ignore) and reaps zombies
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    STORAGE_DIR=/app/data/files \
    MAIL_OUTBOX_DIR=/app/data/mail
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY package.json ./
# the only place the processes write (local file storage, mail outbox); mount a volume here
RUN mkdir -p /app/data/files /app/data/mail && chown -R node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
