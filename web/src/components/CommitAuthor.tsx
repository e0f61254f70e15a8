import type { Commit } from '@/lib/forge/api'
import { PreloadLink } from './PreloadLink'

/** Who wrote a commit: the forge user when git's author maps to one, else git's name. */
export function CommitAuthor({ commit }: { commit: Commit }) {
  if (commit.author?.login) return <PreloadLink to={`/user/${encodeURIComponent(commit.author.login)}`}>{commit.author.login}</PreloadLink>
  return <span>{commit.commit.author.name}</span>
}
