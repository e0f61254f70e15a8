import { useUrlParam } from '@/lib/useUrlParam'
import { type Category, isCategory } from './posts'

/**
 * The selected category tab, kept in ?category= so a filtered list can be
 * linked to (the post page's category badge does) and survives a reload.
 * An unknown category shows all posts.
 */
export function useCategory(): [Category, (c: Category) => void] {
  const [value, setValue] = useUrlParam('category', 'all')
  return [isCategory(value) ? value : 'all', setValue]
}
