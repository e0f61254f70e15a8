import type { ComponentProps } from 'react'

/** The app's drop-down: a plain <select> taking every prop a <select> takes, ref included; styled by `.field select` or className="input". */
export function Select(props: ComponentProps<'select'>) {
  return <select {...props} />
}
