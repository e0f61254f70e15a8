import i18n from 'i18next'
import { type ComponentType, use } from 'react'

type Module = { default: ComponentType }

export interface LazyScreen {
  Component: ComponentType
  preload: () => Promise<Module>
}

// Screens whose last load failed, waiting for the user to ask for a retry.
const failed = new Set<() => void>()

/**
 * A screen loaded on demand; preload() lets links start the download on hover
 * or focus, and the screen's translation namespace loads alongside its chunk.
 * A failed load stays failed (so the error fallback shows instead of React
 * retrying in a loop) until retryFailedScreens() clears it for "Try Again".
 */
export function lazyScreen(load: () => Promise<Module>, namespace?: string): LazyScreen {
  let pending: Promise<Module> | null = null
  const forget = () => {
    pending = null
  }
  const preload = () => {
    pending ??= Promise.all([load(), loadNamespace(namespace)])
      .then(([mod]) => mod)
      .catch((err: unknown) => {
        failed.add(forget)
        throw err
      })
    return pending
  }
  function Component() {
    const { default: Screen } = use(preload())
    return <Screen />
  }
  return { Component, preload }
}

/** Lets every screen whose chunk failed to load try again. */
export function retryFailedScreens(): void {
  for (const forget of failed) forget()
  failed.clear()
}

function loadNamespace(namespace: string | undefined): Promise<unknown> {
  if (!namespace || !i18n.isInitialized) return Promise.resolve()
  return i18n.loadNamespaces(namespace)
}
