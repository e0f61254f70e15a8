import type { HTMLAttributes } from 'react'
import type { Size } from './Button'

interface CardProps extends HTMLAttributes<HTMLElement> {
  size?: Size
  as?: 'div' | 'section' | 'article' | 'li'
}

export function Card({ size = 'md', as: Tag = 'div', className = '', ...rest }: CardProps) {
  return <Tag className={`card card-${size} ${className}`.trim()} {...rest} />
}
