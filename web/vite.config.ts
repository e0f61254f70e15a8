/// <reference types="vitest/config" />
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
        runtimeCaching: [
          {
            urlPattern: ({ url }) => /^\/api\/v1\/(pages|docs|blog|faq)/.test(url.pathname),
            handler: 'NetworkFirst',
            options: { cacheName: 'dforge-content', networkTimeoutSeconds: 3 },
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
  },
})
