import type { Size } from './Button'

/** A decorative spinner; the surrounding element carries the status text. */
export function Spinner({ size = 'md' }: { size?: Size }) {
  return <span className={`spinner spinner-${size}`} aria-hidden="true" />
}
