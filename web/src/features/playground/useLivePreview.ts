import { useEffect } from 'react'

/** While enabled, renders the text once typing has paused for delay ms. */
export function useLivePreview(text: string, enabled: boolean, render: (text: string) => void, delay = 500) {
  useEffect(() => {
    if (!enabled) return
    const timer = setTimeout(() => render(text), delay)
    return () => clearTimeout(timer)
  }, [text, enabled, render, delay])
}
