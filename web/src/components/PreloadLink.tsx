import type { AnchorHTMLAttributes } from 'react'
import { preloadPath } from '@/app/routes'

/** A link (a full page load) that starts loading its screen's chunk on hover or focus. */
export function PreloadLink({ to, onMouseEnter, onFocus, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  return (
    <a
      href={to}
      onMouseEnter={(e) => {
        preloadPath(to)
        onMouseEnter?.(e)
      }}
      onFocus={(e) => {
        preloadPath(to)
        onFocus?.(e)
      }}
      {...rest}
    />
  )
}
