import { type ComponentType, use } from 'react'

type Module = { default: ComponentType }

export interface LazyScreen {
  Component: ComponentType
  preload: () => Promise<Module>
}

/**
 * A screen loaded on demand. Unlike React.lazy, a failed load is forgotten,
 * so the error fallback's "Try Again" really loads the chunk again; preload()
 * lets links start the download on hover or focus.
 */
export function lazyScreen(load: () => Promise<Module>): LazyScreen {
  let pending: Promise<Module> | null = null
  const preload = () => {
    pending ??= load().catch((err: unknown) => {
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
