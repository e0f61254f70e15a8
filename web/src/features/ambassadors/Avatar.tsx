/** A holder's picture: their avatar when they set one, else their initials on a colour drawn from their address. */
export function Avatar({ name, address, url }: { name: string; address: string; url?: string }) {
  if (url) return <img className="ambassador-avatar" src={url} alt="" width={48} height={48} />
  const initials =
    name
      .split(/[\s_.-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => [...w][0]?.toUpperCase() ?? '')
      .join('') || '?'
  // The hue only tells people apart; the lightness keeps white text readable on every hue.
  const hue = parseInt(address.slice(2, 6), 16) % 360 || 0
  return (
    <span className="ambassador-avatar" aria-hidden="true" style={{ background: `hsl(${hue} 45% 32%)` }}>
      {initials}
    </span>
  )
}
