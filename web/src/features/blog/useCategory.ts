import { useCallback, useState } from 'react'
import { type Category, isCategory } from './posts'

/**
 * The selected category tab, kept in ?category= so a filtered list can be
 * linked to (the post page's category badge does) and survives a reload.
 */
export function useCategory(): [Category, (c: Category) => void] {
  const [category, setCategory] = useState<Category>(() => {
    const value = new URLSearchParams(window.location.search).get('category')
    return isCategory(value) ? value : 'all'
  })
  const select = useCallback((c: Category) => {
    setCategory(c)
    const url = new URL(window.location.href)
    if (c === 'all') url.searchParams.delete('category')
    else url.searchParams.set('category', c)
    window.history.replaceState(window.history.state, '', url)
  }, [])
  return [category, select]
}
