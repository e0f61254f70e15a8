import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'

export interface TabItem<T extends string> {
  id: T
  label: string
}

interface TabsProps<T extends string> {
  /** The tab list's accessible name. */
  label: string
  tabs: readonly TabItem<T>[]
  selected: T
  onSelect: (id: T) => void
  /** The selected tab's panel. */
  children: ReactNode
}

const STEP: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
}

/**
 * WAI-ARIA tabs with automatic activation: only the selected tab is in the Tab
 * order, and the arrow keys, Home and End move (and select) between tabs.
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect, children }: TabsProps<T>) {
  const base = useId()
  const buttons = useRef(new Map<T, HTMLButtonElement>())
  const tabId = (id: T) => `${base}-tab-${id}`
  const panelId = `${base}-panel`

  const onKeyDown = (e: KeyboardEvent) => {
    const step = STEP[e.key]
    if (!step) return
    e.preventDefault()
    const next = tabs[step(Math.max(0, tabs.findIndex((tab) => tab.id === selected)), tabs.length)]
    onSelect(next.id)
    buttons.current.get(next.id)?.focus()
  }

  return (
    <>
      <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) buttons.current.set(tab.id, el)
              return () => {
                buttons.current.delete(tab.id)
              }
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            className="tab"
            aria-selected={tab.id === selected}
            aria-controls={panelId}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} tabIndex={0}>
        {children}
      </div>
    </>
  )
}
