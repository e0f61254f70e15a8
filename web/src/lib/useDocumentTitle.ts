import { useEffect } from 'react'

/** Sets the tab title to "<title> · dForge" while the screen is shown. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · dForge`
  }, [title])
}
