import type { ReactNode } from 'react'

/** What a list shows when it has nothing in it, with an optional next step. */
export function EmptyState({ message, action }: { message: string; action?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <p>{message}</p>
      {action}
    </div>
  )
}
