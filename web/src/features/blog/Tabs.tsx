import { type KeyboardEvent, type ReactNode, useRef } from 'react'

export interface TabItem<T extends string> {
  id: T
  label: string
}

interface TabsProps<T extends string> {
  /** The tab list's accessible name. */
  label: string
  /** Ties the tabs to their panel; unique on the screen. */
  idPrefix: string
  tabs: readonly TabItem<T>[]
  selected: T
  onSelect: (id: T) => void
}

const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`
const panelId = (prefix: string) => `${prefix}-panel`

// Arrow keys, Home and End move between tabs and select them, as the WAI-ARIA
// tabs pattern describes; only the selected tab is in the Tab order.
function nextIndex(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count
    case 'ArrowLeft':
      return (index - 1 + count) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return null
  }
}

/** A row of filter tabs (the .tabs/.tab styles) that control one TabPanel. */
export function Tabs<T extends string>({ label, idPrefix, tabs, selected, onSelect }: TabsProps<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const next = nextIndex(e.key, index, tabs.length)
    if (next === null) return
    e.preventDefault()
    onSelect(tabs[next].id)
    buttons.current[next]?.focus()
  }
  return (
    <div role="tablist" aria-label={label} className="tabs">
      {tabs.map((tab, i) => (
        <button
          key={tab.id}
          ref={(el) => {
            buttons.current[i] = el
          }}
          id={tabId(idPrefix, tab.id)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab.id === selected}
          aria-controls={panelId(idPrefix)}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

/** The content shown for the selected tab of the Tabs with the same idPrefix. */
export function TabPanel({ idPrefix, selected, children }: { idPrefix: string; selected: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={panelId(idPrefix)} aria-labelledby={tabId(idPrefix, selected)}>
      {children}
    </div>
  )
}
