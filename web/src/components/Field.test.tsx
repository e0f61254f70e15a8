import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Field } from './Field'
import { Input } from './Input'

describe('Field', () => {
  it('names its control and describes it with the hint and the error', () => {
    render(
      <Field label="Name" hint="Lower case" error="Taken">
        <Input id="n" />
      </Field>,
    )
    const box = screen.getByRole('textbox', { name: 'Name' })
    expect(box.id).toBe('n')
    expect(box.getAttribute('aria-describedby')).toBe('n-hint n-error')
    expect(box.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById('n-hint')?.textContent).toBe('Lower case')
    expect(document.getElementById('n-error')?.textContent).toBe('Taken')
  })

  it('keeps a control without hint or error undescribed and valid', () => {
    render(
      <Field label="Title">
        <Input />
      </Field>,
    )
    const box = screen.getByRole('textbox', { name: 'Title' })
    expect(box.hasAttribute('aria-describedby')).toBe(false)
    expect(box.hasAttribute('aria-invalid')).toBe(false)
    expect(box.id).not.toBe('')
  })

  it('hides the label visually but still names the control when labelHidden', () => {
    render(
      <Field label="Search" labelHidden>
        <Input />
      </Field>,
    )
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeTruthy()
    expect(screen.getByText('Search').className).toBe('sr-only')
  })

  it('announces its error as an alert only when asked to', () => {
    const { rerender } = render(
      <Field label="Amount" error="Too much">
        <Input />
      </Field>,
    )
    expect(screen.queryByRole('alert')).toBeNull()
    rerender(
      <Field label="Amount" error="Too much" announce>
        <Input />
      </Field>,
    )
    expect(screen.getByRole('alert').textContent).toBe('Too much')
  })

  it('puts before and after beside the control, in one row when given its class', () => {
    const { container } = render(
      <Field label="Name" before={<span>owner /</span>} after={<button type="submit">Go</button>} row="owner-name">
        <Input />
      </Field>,
    )
    const row = container.querySelector('.owner-name')
    expect(row?.children.length).toBe(3)
    expect(row?.children[1]).toBe(screen.getByRole('textbox', { name: 'Name' }))
    expect(row?.textContent).toBe('owner /Go')
  })
})
