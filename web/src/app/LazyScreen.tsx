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
 * or focus, and the screen's translation namespaces (one, or several for a
 * screen that also shows another feature's strings) load alongside its chunk.
 * A failed load stays failed (so the error fallback shows instead of React
 * retrying in a loop) until retryFailedScreens() clears it for "Try Again".
 */
export function lazyScreen(load: () => Promise<Module>, namespaces?: string | readonly string[]): LazyScreen {
  let pending: Promise<Module> | null = null
  const forget = () => {
    pending = null
  }
  const preload = () => {
    pending ??= Promise.all([load(), loadNamespaces(namespaces)])
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

// i18next fetches the namespaces of one call in parallel and resolves once all are in.
function loadNamespaces(namespaces: string | readonly string[] | undefined): Promise<unknown> {
  const list = (typeof namespaces === 'string' ? [namespaces] : (namespaces ?? [])).filter(Boolean)
  if (list.length === 0 || !i18n.isInitialized) return Promise.resolve()
  return i18n.loadNamespaces([...list])
}
