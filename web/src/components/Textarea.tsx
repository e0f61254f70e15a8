import type { ComponentProps } from 'react'

/** The app's multi-line text box: a plain <textarea> taking every prop a <textarea> takes, ref included; styled by `.field textarea` or className="input". */
export function Textarea(props: ComponentProps<'textarea'>) {
  return <textarea {...props} />
}
