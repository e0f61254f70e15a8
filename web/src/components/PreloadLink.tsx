import { type AnchorHTMLAttributes, createContext, useContext } from 'react'

/**
 * Starts loading the screen a path shows. The app provides it (app/preload.ts);
 * shared code gets it through this context so that it never imports the app's
 * table of screens, which imports every feature. Outside the app it does nothing.
 */
export const PreloadContext = createContext<(href: string) => void>(() => {})

/** A link (a full page load) that starts loading its screen's chunk on hover or focus. */
export function PreloadLink({ to, onMouseEnter, onFocus, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const preloadPath = useContext(PreloadContext)
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
