/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os'
import { writeFileSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// Vite empties dist/ on build; the Go embed needs the directory to exist on a
// fresh clone, so the committed placeholder is written back.
function keepGitkeep(): Plugin {
  return {
    name: 'dforge-keep-gitkeep',
    apply: 'build',
    closeBundle() {
      writeFileSync(fileURLToPath(new URL('./dist/.gitkeep', import.meta.url)), '')
    },
  }
}

/**
 * The service worker's rules for saved API answers (functions are copied
 * into sw.js as source, so they use nothing from this file): keep only a
 * 200 that is neither private nor no-store, and mark an answer served from
 * the cache with X-Dforge-Saved-Copy (src/lib/savedCopy.ts reads it with
 * the Date the node sent).
 */
function savedCopyPlugin() {
  return {
    cacheWillUpdate: async ({ response }: { response: Response }) => {
      const cc = response.headers.get('Cache-Control') ?? ''
      if (response.status !== 200 || /private|no-store/i.test(cc) || response.headers.has('Set-Cookie')) return null
      return response
    },
    cachedResponseWillBeUsed: markSavedCopy,
  }
}

/**
 * Content (pages, docs, blog, FAQ) is the same for every visitor, so it is
 * kept even when the answer went to a signed-in visitor (marked private).
 */
function contentPlugin() {
  return {
    cacheWillUpdate: async ({ response }: { response: Response }) => {
      const cc = response.headers.get('Cache-Control') ?? ''
      if (response.status !== 200 || /no-store/i.test(cc) || response.headers.has('Set-Cookie')) return null
      return response
    },
    cachedResponseWillBeUsed: markSavedCopy,
  }
}

// Self-contained (copied into sw.js as source).
async function markSavedCopy({ cachedResponse }: { cachedResponse?: Response }) {
  if (!cachedResponse) return cachedResponse ?? null
  const headers = new Headers(cachedResponse.headers)
  headers.set('X-Dforge-Saved-Copy', '1')
  return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers })
}

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  plugins: [
    react(),
    VitePWA({
      filename: 'sw.js',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: 'dForge',
        short_name: 'dForge',
        description: 'Decentralized Open Source Platform',
        theme_color: '#1c1917',
        background_color: '#1c1917',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The shell and every screen chunk are precached so the app opens
        // offline; music and API data are fetched when online.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,json}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/ipfs\//, /^\/metrics$/, /^\/healthz$/, /\.git(\/|$)/],
        // API reads are network-first: a failed or slow (3 s) network falls
        // back to the last saved copy, marked so the page can show its age.
        // Content is the same for everyone and always kept. Nothing private
        // is kept of other reads: answers to signed-in requests are
        // Cache-Control: private (the API sets it), and requests with
        // Authorization and the user's own areas are never cached.
        runtimeCaching: [
          {
            urlPattern: ({ url }) => /^\/api\/v1\/(pages|docs|blog|faq)(\/|$)/.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'dforge-content',
              networkTimeoutSeconds: 3,
              expiration: { maxEntries: 200 },
              plugins: [contentPlugin()],
            },
          },
          {
            urlPattern: ({ url, request, sameOrigin }) =>
              sameOrigin &&
              url.pathname.startsWith('/api/v1/') &&
              !/^\/api\/v1\/(user(\/|$)|notifications|messages|admin|auth|analytics)/.test(url.pathname) &&
              !url.pathname.endsWith('/stream') &&
              !request.headers.has('Authorization'),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'dforge-api',
              networkTimeoutSeconds: 3,
              expiration: { maxEntries: 300, maxAgeSeconds: 7 * 86_400 },
              plugins: [savedCopyPlugin()],
            },
          },
        ],
      },
    }),
    keepGitkeep(),
  ],
  build: { target: 'es2022', sourcemap: false },
  server: {
    proxy: { '^/api/': 'http://127.0.0.1:3000', '/healthz': 'http://127.0.0.1:3000' },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Each test file runs in a VM context of a long-lived worker, so jsdom and
    // the dependencies load once per worker, not once per file: the suite
    // takes a third of the time (make test-short's budget). Every core runs
    // a worker (Vitest's default leaves one idle, half the machine on 2 cores).
    pool: 'vmThreads',
    maxWorkers: availableParallelism(),
    // viem's lazy imports (the sign-in's) resolve subpaths that a VM context's
    // external loader cannot; Vite transforms them instead.
    server: { deps: { inline: [/node_modules\/(viem|ox|abitype|@noble\/[^/]+)\//] } },
  },
})
