import type { ComponentProps } from 'react'

/**
 * The app's text box (and checkbox, radio, number, date…): a plain <input>
 * that takes every prop an <input> takes, ref included (React 19). It adds no
 * class of its own: inside a Field the `.field input` styles apply, and a
 * standalone box passes className="input".
 */
export function Input(props: ComponentProps<'input'>) {
  return <input {...props} />
}
