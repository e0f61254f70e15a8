import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Button } from './Button'
import { Card } from './Card'
import { Spinner } from './Spinner'

describe('UI kit', () => {
  it.each(['primary', 'secondary', 'outline', 'ghost', 'danger'] as const)('Button variant %s', (variant) => {
    render(<Button variant={variant}>Go</Button>)
    expect(screen.getByRole('button', { name: 'Go' }).className).toContain(`btn-${variant}`)
  })

  it.each(['sm', 'md', 'lg'] as const)('size %s on Button, Card and Spinner', (size) => {
    const { container } = render(
      <>
        <Button size={size}>b</Button>
        <Card size={size}>c</Card>
        <Spinner size={size} />
      </>,
    )
    expect(container.querySelector(`.btn-${size}`)).not.toBeNull()
    expect(container.querySelector(`.card-${size}`)).not.toBeNull()
    expect(container.querySelector(`.spinner-${size}`)).not.toBeNull()
  })

  it('Button defaults to a primary, medium, non-submitting button', () => {
    render(<Button>x</Button>)
    const b = screen.getByRole('button')
    expect(b.className).toBe('btn btn-primary btn-md')
    expect(b.getAttribute('type')).toBe('button')
  })
})
