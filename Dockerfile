# Production image: the app on a real MongoDB (MONGODB_URI) and a real SMTP server (SMTP_URL).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
# Blocks of 128 KiB or more go back to the system when freed (see server.js: scrypt's 16 MB at
# every sign-in would otherwise stay with the process).
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/.data MALLOC_MMAP_THRESHOLD_=131072
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/server.js ./server.js
COPY --from=build /app/server ./server
COPY --from=build /app/app ./app
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/embedded-mongo ./embedded-mongo
COPY --from=build /app/tsconfig.json ./tsconfig.json
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server.js"]
