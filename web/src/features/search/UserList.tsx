import { PreloadLink } from '@/components/PreloadLink'
import type { PublicUser } from '@/features/users'
import './search.css'

/** Users as a search finds them: the display name linking to their page, the login, the bio. */
export function UserList({ users, label }: { users: PublicUser[]; label: string }) {
  return (
    <ul className="search-list" aria-label={label}>
      {users.map((u) => (
        <li key={u.wallet_address || u.login}>
          <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.full_name || u.login}</PreloadLink> <span className="muted">@{u.login}</span>
          {u.description && <p className="muted">{u.description}</p>}
        </li>
      ))}
    </ul>
  )
}
