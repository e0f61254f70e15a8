import { cloneElement, type ReactElement, type ReactNode, useId } from 'react'

interface ControlProps {
  id?: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean | 'true' | 'false'
}

interface FieldProps {
  /** The label's text; it names the control (label htmlFor = control id). */
  label: ReactNode
  /** One control: an Input, Select or Textarea. Its own id, if it has one, is kept. */
  children: ReactElement<ControlProps>
  /** A line of help under the control, read out with it (aria-describedby). */
  hint?: ReactNode
  /** The control's error: when set, the control is marked invalid and the message is read out with it. */
  error?: ReactNode
  /** Extra classes beside `field` (a screen's own layout). */
  className?: string
  /** Keep the label for screen readers only, where the screen around the control already says what it is (a search box beside its button). */
  labelHidden?: boolean
  /** Read the error out the moment it shows (role="alert"), for a message that appears while the user is elsewhere on the form. */
  announce?: boolean
  /** Shown just before / after the control: a fixed prefix (`owner /`), the form's button, a datalist. */
  before?: ReactNode
  after?: ReactNode
  /** The class of a row holding before, control and after (e.g. a search box and its button); without it they stack like the rest of the field. */
  row?: string
}

/**
 * A labelled form control: label, control, hint and error in the `.field`
 * column, wired for assistive technology (htmlFor/id, aria-describedby,
 * aria-invalid) so a screen does not repeat that plumbing.
 */
export function Field({ label, children, hint, error, className = '', labelHidden = false, announce = false, before, after, row }: FieldProps) {
  const auto = useId()
  const id = children.props.id ?? auto
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined
  const control = cloneElement(children, {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : children.props['aria-invalid'],
  })
  return (
    <div className={`field ${className}`.trim()}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : undefined}>
        {label}
      </label>
      {row ? (
        <div className={row}>
          {before}
          {control}
          {after}
        </div>
      ) : (
        <>
          {before}
          {control}
          {after}
        </>
      )}
      {hint && (
        <span id={hintId} className="muted field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </span>
      )}
    </div>
  )
}
