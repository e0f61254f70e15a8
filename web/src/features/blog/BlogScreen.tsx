import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Post, usePosts } from './api'
import { PostCard } from './PostCard'
import { type Category, CATEGORIES, categoryKey, postsIn } from './posts'
import { Tabs } from '@/components/Tabs'
import { useCategory } from './useCategory'
import './blog.css'

/** /blog: the posts from content/blog, filtered by category, the featured one first. */
export default function BlogScreen() {
  const { t } = useTranslation('blog')
  useDocumentTitle(t('title'))
  const posts = usePosts()
  const [category, setCategory] = useCategory()
  return (
    <>
      <PageHeader title={t('title')} lead={t('lead')} />
      <Tabs
        label={t('categoriesLabel')}
        tabs={CATEGORIES.map((id) => ({ id, label: t(categoryKey(id)) }))}
        selected={category}
        onSelect={setCategory}
      >
        <QueryState query={posts}>{(list) => <PostList posts={postsIn(list, category)} category={category} />}</QueryState>
      </Tabs>
    </>
  )
}

function PostList({ posts, category }: { posts: Post[]; category: Category }) {
  const { t } = useTranslation('blog')
  if (posts.length === 0) return <EmptyState message={category === 'all' ? t('empty.all') : t('empty.category')} />
  // postsIn puts the featured post first; it gets its own, larger card.
  const [first, ...others] = posts
  const featured = first.featured ? first : null
  const rest = featured ? others : posts
  return (
    <div className="stack">
      {featured && <PostCard post={featured} featured as="article" />}
      {rest.length > 0 && (
        <ul className="grid blog-list">
          {rest.map((p) => (
            <PostCard key={p.slug} post={p} />
          ))}
        </ul>
      )}
    </div>
  )
}
