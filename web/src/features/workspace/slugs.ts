/** The personal and operations pages this screen serves, by first path segment. */
export const WORKSPACE_SLUGS = ['monitoring', 'admin'] as const
export type WorkspaceSlug = (typeof WORKSPACE_SLUGS)[number]
export type PersonalSlug = Exclude<WorkspaceSlug, 'monitoring' | 'admin'>

export function isWorkspaceSlug(value: string): value is WorkspaceSlug {
  return (WORKSPACE_SLUGS as readonly string[]).includes(value)
}
