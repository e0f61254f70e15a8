import i18n from 'i18next'
import { type ComponentType, use } from 'react'

type Module = { default: ComponentType }

export interface LazyScreen {
  Component: ComponentType
  preload: () => Promise<Module>
}

/**
 * A screen loaded on demand. Unlike React.lazy, a failed load is forgotten,
 * so the error fallback's "Try Again" really loads the chunk again; preload()
 * lets links start the download on hover or focus. The screen's translation
 * namespace loads alongside its chunk rather than after it renders.
 */
export function lazyScreen(load: () => Promise<Module>, namespace?: string): LazyScreen {
  let pending: Promise<Module> | null = null
  const preload = () => {
    pending ??= Promise.all([load(), loadNamespace(namespace)])
      .then(([mod]) => mod)
      .catch((err: unknown) => {
        pending = null
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

function loadNamespace(namespace: string | undefined): Promise<unknown> {
  if (!namespace || !i18n.isInitialized) return Promise.resolve()
  return i18n.loadNamespaces(namespace)
}
