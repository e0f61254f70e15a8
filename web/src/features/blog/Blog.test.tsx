import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import i18n from '@/i18n/i18n'
import { renderScreen, stubFetch } from '@/test/render'
import type { Post } from './api'
import BlogPostScreen from './BlogPostScreen'
import BlogScreen from './BlogScreen'
import { relatedPosts } from './posts'

// Fixtures in the server's shape, for the stubbed fetch only.
const post = (slug: string, category: string, date: string, featured = false): Post => ({
  slug,
  title: `Title of ${slug}`,
  date,
  category,
  author: 'The dForge team',
  summary: `Summary of ${slug}`,
  featured,
})
const POSTS = [
  post('older-news', 'announcements', '2026-10-01'),
  post('big-news', 'announcements', '2026-11-22', true),
  post('tutorial-one', 'tutorials', '2026-11-20'),
  post('deep-dive', 'technical', '2026-11-19'),
  post('tutorial-two', 'tutorials', '2026-11-18'),
]

// The list, then each post with its body; anything else is the API's 404.
function stubBlogAPI(posts: Post[] = POSTS) {
  return stubFetch({
    '/api/v1/blog': posts,
    ...Object.fromEntries(posts.map((p) => [`/api/v1/blog/${p.slug}`, { ...p, html: `<p>Body of ${p.slug}</p>` }])),
  })
}

describe('BlogScreen', () => {
  it('shows the featured post first, with dates in the current language', async () => {
    stubBlogAPI()
    renderScreen(<BlogScreen />, '/blog')
    const headings = await screen.findAllByRole('heading', { level: 2 })
    expect(headings[0].textContent).toBe('Title of big-news')
    expect(headings[0].closest('.blog-featured')).not.toBeNull()
    expect(screen.getByText('Featured')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Title of big-news' }).getAttribute('href')).toBe('/blog/big-news')
    expect(screen.getByText('November 22, 2026')).toBeTruthy()
    expect(headings).toHaveLength(POSTS.length)
  })

  it('filters by category and shows the empty state of a category without posts', async () => {
    stubBlogAPI()
    renderScreen(<BlogScreen />, '/blog')
    await screen.findByText('Title of big-news')

    fireEvent.click(screen.getByRole('tab', { name: 'Tutorials' }))
    expect(screen.getByRole('tab', { name: 'Tutorials' }).getAttribute('aria-selected')).toBe('true')
    const panel = screen.getByRole('tabpanel')
    expect(within(panel).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Title of tutorial-one',
      'Title of tutorial-two',
    ])
    expect(window.location.search).toBe('?category=tutorials')

    fireEvent.click(screen.getByRole('tab', { name: 'Case studies' }))
    expect(screen.getByText('No posts in this category yet')).toBeTruthy()
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull()
  })

  it('moves between tabs with the arrow keys', async () => {
    stubBlogAPI()
    renderScreen(<BlogScreen />, '/blog')
    await screen.findByText('Title of big-news')
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All' }), { key: 'ArrowRight' })
    const announcements = screen.getByRole('tab', { name: 'Announcements' })
    expect(announcements.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(announcements)
    expect(screen.queryByText('Title of tutorial-one')).toBeNull()
  })

  it('opens on the category named in the address', async () => {
    stubBlogAPI()
    renderScreen(<BlogScreen />, '/blog?category=technical')
    expect(await screen.findByText('Title of deep-dive')).toBeTruthy()
    expect(screen.queryByText('Title of big-news')).toBeNull()
  })

  it('formats dates in the language the reader chose', async () => {
    await i18n.changeLanguage('de')
    try {
      expect(i18n.resolvedLanguage).toBe('de')
      stubBlogAPI()
      renderScreen(<BlogScreen />, '/blog')
      expect(await screen.findByText('22. November 2026')).toBeTruthy()
    } finally {
      await i18n.changeLanguage('en')
    }
  })

  it('says there are no posts when the blog is empty', async () => {
    stubBlogAPI([])
    renderScreen(<BlogScreen />, '/blog')
    expect(await screen.findByText('No posts yet')).toBeTruthy()
  })
})

describe('BlogPostScreen', () => {
  it('shows the post with its meta and related posts of the same category first', async () => {
    stubBlogAPI()
    renderScreen(<BlogPostScreen />, '/blog/tutorial-one')
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of tutorial-one' })).toBeTruthy()
    expect(screen.getByText('Body of tutorial-one')).toBeTruthy()
    expect(screen.getByText('by The dForge team')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Tutorials' }).getAttribute('href')).toBe('/blog?category=tutorials')
    const related = screen.getByRole('region', { name: 'Related posts' })
    const titles = (await within(related).findAllByRole('heading', { level: 3 })).map((h) => h.textContent)
    expect(titles).toEqual(['Title of tutorial-two', 'Title of older-news', 'Title of big-news'])
  })

  it('shows a not-found state with a link to the blog for an unknown post', async () => {
    stubBlogAPI()
    renderScreen(<BlogPostScreen />, '/blog/no-such-post')
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the blog' }).getAttribute('href')).toBe('/blog')
  })
})

describe('relatedPosts', () => {
  it('excludes the post itself and returns at most three', () => {
    const current = POSTS[1]
    const related = relatedPosts(POSTS, current)
    expect(related.map((p) => p.slug)).toEqual(['older-news', 'tutorial-one', 'deep-dive'])
    expect(relatedPosts([current], current)).toEqual([])
  })
})
