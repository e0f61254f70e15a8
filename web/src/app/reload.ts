/**
 * Reloads the page. A module of its own so a test can replace it: a
 * document's location and its methods cannot be redefined.
 */
export function reloadPage() {
  window.location.reload()
}
